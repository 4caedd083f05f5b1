-- Sessions this editor follows: their requests (prompt, steer, follow-up, abort, mode,
-- model) and what the daemon tells about them, drawn into each one's chat buffer.
-- Every request returns at once; answers arrive in callbacks, so a turn never blocks.
local chat = require('agentd.chat')
local client = require('agentd.client')
local rpc = require('agentd.rpc')
local turn_end = require('agentd.turn_end')

local M = {
  -- sessionId → Session
  by_id = {},
  current = nil,
}

local Session = {}
Session.__index = Session

local function noop() end

local function create(id, cwd)
  local self = setmetatable({
    id = id,
    cwd = cwd,
    chat = chat.new(id),
    -- ACP SessionModeState: { currentModeId, availableModes }.
    modes = nil,
    -- ACP SessionConfigOption[] (model, steeringMode, followUpMode).
    config_options = nil,
    title = nil,
    -- A session/prompt from this editor awaits its answer.
    prompt_pending = false,
    -- A turn runs (whoever started it), from turn_start/turn_end events and session/load.
    running = false,
    -- Every turn ending seen, oldest first (see turn_end.lua).
    endings = {},
    usage = nil,
    queue = nil,
  }, Session)
  M.by_id[id] = self
  return self
end

function Session:_ended(ending)
  self.running = false
  table.insert(self.endings, ending)
  self.chat:note(ending.text)
end

function Session:_apply_state(result)
  self.modes = result.modes or self.modes
  self.config_options = result.configOptions or self.config_options
end

--- Runs a turn; returns at once. on_done(ending) when it ends.
function Session:prompt(blocks, on_done)
  on_done = on_done or noop
  self.chat:user_message(blocks)
  self.prompt_pending = true
  self.running = true
  client.request('session/prompt', { sessionId = self.id, prompt = blocks }, function(err, result)
    self.prompt_pending = false
    local ending = err and turn_end.from_error(err) or turn_end.from_result(result)
    if ending.outcome == 'busy' then
      -- Another client's turn is still running: only this prompt was refused.
      table.insert(self.endings, ending)
      self.chat:note(ending.text)
    else
      self:_ended(ending)
    end
    on_done(ending)
  end)
end

-- session/steer and session/followUp: the message joins the running turn (or starts one).
function Session:_deliver(method, how, blocks, extra, on_done)
  on_done = on_done or noop
  self.chat:user_message(blocks, how)
  local params = vim.tbl_extend('force', { sessionId = self.id, prompt = blocks }, extra or {})
  client.request(method, params, function(err, result)
    if err then
      self.chat:note('[error] ' .. how .. ': ' .. rpc.describe_error(err))
    end
    on_done(err, result)
  end)
end

--- Delivers a message into the running turn at the next safe point (interrupt: at once).
function Session:steer(blocks, opts, on_done)
  opts = opts or {}
  self:_deliver('session/steer', 'steer', blocks, { interrupt = opts.interrupt and true or nil }, on_done)
end

--- Queues a message for when the agent would otherwise stop.
function Session:follow_up(blocks, on_done)
  self:_deliver('session/followUp', 'follow-up', blocks, nil, on_done)
end

--- Stops the running turn now; on_done(err, result) once it has fully stopped.
function Session:abort(on_done)
  on_done = on_done or noop
  client.request('session/abort', { sessionId = self.id }, function(err, result)
    if err then
      self.chat:note('[error] abort: ' .. rpc.describe_error(err))
    end
    on_done(err, result)
  end)
end

--- ACP cancel: a notification; the running prompt answers `cancelled`.
function Session:cancel()
  client.notify('session/cancel', { sessionId = self.id })
end

function Session:set_mode(mode_id, on_done)
  on_done = on_done or noop
  client.request('session/set_mode', { sessionId = self.id, modeId = mode_id }, function(err, result)
    if err then
      self.chat:note('[error] mode: ' .. rpc.describe_error(err))
    elseif self.modes then
      self.modes.currentModeId = mode_id
    end
    on_done(err, result)
  end)
end

function Session:set_config_option(config_id, value, on_done)
  on_done = on_done or noop
  local params = { sessionId = self.id, configId = config_id, value = value }
  client.request('session/set_config_option', params, function(err, result)
    if err then
      self.chat:note('[error] ' .. config_id .. ': ' .. rpc.describe_error(err))
    else
      self.config_options = result.configOptions
      self.chat:note(string.format('[%s] %s', config_id, value))
    end
    on_done(err, result)
  end)
end

--- The option with this id (e.g. 'model'), or nil.
function Session:config_option(config_id)
  for _, option in ipairs(self.config_options or {}) do
    if option.id == config_id then
      return option
    end
  end
  return nil
end

-- What the daemon streams (ACP session/update), by kind.
local on_update = {
  agent_message_chunk = function(s, u)
    s.chat:agent_chunk(u.content, u.messageId)
  end,
  agent_thought_chunk = function(s, u)
    s.chat:thought_chunk(u.content, u.messageId)
  end,
  user_message_chunk = function(s, u)
    s.chat:user_chunk(u.content, u.messageId)
  end,
  tool_call = function(s, u)
    s.chat:tool_call(u)
  end,
  tool_call_update = function(s, u)
    s.chat:tool_call_update(u)
  end,
  plan = function(s, u)
    s.chat:plan(u.entries)
  end,
  current_mode_update = function(s, u)
    if s.modes then
      s.modes.currentModeId = u.currentModeId
    end
    s.chat:note('[mode] ' .. u.currentModeId)
  end,
  config_option_update = function(s, u)
    s.config_options = u.configOptions
  end,
  session_info_update = function(s, u)
    s.title = u.title or s.title
  end,
  usage_update = function(s, u)
    s.usage = { used = u.used, size = u.size, cost = u.cost }
  end,
  notice = function(s, u)
    local text = string.format('[%s] %s', u.severity, u.title)
    if u.description then
      text = text .. ': ' .. u.description
    end
    s.chat:note(text)
  end,
}

function M.on_update(params)
  local s = M.by_id[params.sessionId]
  local handler = s and params.update and on_update[params.update.sessionUpdate]
  if handler then
    handler(s, params.update)
  end
end

-- agentd/event: turns, queues and retries ACP cannot carry.
local on_event = {
  turn_start = function(s)
    s.running = true
  end,
  turn_end = function(s, e)
    -- A prompt from this editor is answered with the same ending (and an error answer
    -- says more); turns started elsewhere or by a steer into an idle session end here.
    if not s.prompt_pending then
      s:_ended(turn_end.from_event(e))
    end
  end,
  queue = function(s, e)
    s.queue = { steering = e.steering, follow_up = e.followUp }
  end,
  retry = function(s, e)
    s.chat:note(string.format('[retry %d] %s', e.attempt, e.reason))
  end,
  fallback = function(s, e)
    s.chat:note(string.format('[fallback] %s -> %s: %s', e.from, e.to, e.reason))
  end,
}

function M.on_event(params)
  local s = M.by_id[params.sessionId]
  local handler = s and params.event and on_event[params.event.type]
  if handler then
    handler(s, params.event)
  end
end

--- The daemon went away: turns in flight are over for this editor.
function M.on_disconnect(reason)
  for _, s in pairs(M.by_id) do
    if s.running or s.prompt_pending then
      s.running = false
      s.chat:note('[disconnected] ' .. reason)
    end
  end
  -- The sessions are stored by the daemon; a new connection must load them again.
  M.by_id, M.current = {}, nil
end

--- Creates a session in cwd; on_done(session) or on_done(nil, err).
function M.new(cwd, on_done)
  client.request('session/new', { cwd = cwd, mcpServers = {} }, function(err, result)
    if err then
      return on_done(nil, err)
    end
    local s = create(result.sessionId, cwd)
    s:_apply_state(result)
    M.current = s
    on_done(s)
  end)
end

--- Opens a stored session: its history is replayed into the chat, then live updates follow.
function M.load(id, cwd, on_done)
  local existing = M.by_id[id]
  if existing then
    M.current = existing
    return on_done(existing)
  end
  -- Registered before the request: the replay arrives before the answer.
  local s = create(id, cwd)
  client.request('session/load', { sessionId = id, cwd = cwd, mcpServers = {} }, function(err, result)
    if err then
      M.by_id[id] = nil
      return on_done(nil, err)
    end
    s:_apply_state(result)
    local meta = type(result._meta) == 'table' and result._meta.agentd or {}
    -- A turn running now goes on streaming into the chat (no note: it would split the reply).
    s.running = meta.state == 'running'
    M.current = s
    on_done(s)
  end)
end

--- Stored sessions, newest first (every page); on_done(list) or on_done(nil, err).
function M.list(on_done)
  local all = {}
  local function page(cursor)
    client.request('session/list', cursor and { cursor = cursor } or vim.empty_dict(), function(err, result)
      if err then
        return on_done(nil, err)
      end
      vim.list_extend(all, result.sessions or {})
      if result.nextCursor and #all < 1000 then
        return page(result.nextCursor)
      end
      on_done(all)
    end)
  end
  page(nil)
end

return M
