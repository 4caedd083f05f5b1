-- Sessions this editor follows: their requests (prompt, steer, follow-up, abort, mode,
-- model) and what the daemon tells about them, drawn into each one's chat buffer.
-- Every request returns at once; answers arrive in callbacks, so a turn never blocks.
local chat = require('agentd.chat')
local client = require('agentd.client')
local rpc = require('agentd.rpc')
local turn_end = require('agentd.turn_end')
local updates = require('agentd.session_updates')

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
    -- ACP SessionConfigOption[] (mode, model, steeringMode, followUpMode).
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

--- Records how a turn ended and shows it.
function Session:ended(ending)
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
      self:ended(ending)
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

-- What the daemon sends about a session goes to session_updates.lua, which applies it.
function M.on_update(params)
  local s = M.by_id[params.sessionId]
  local apply = s and params.update and updates.update[params.update.sessionUpdate]
  if apply then
    apply(s, params.update)
  end
end

function M.on_event(params)
  local s = M.by_id[params.sessionId]
  local apply = s and params.event and updates.event[params.event.type]
  if apply then
    apply(s, params.event)
  end
end

--- The daemon went away: turns in flight are over for this editor.
function M.on_disconnect(reason)
  for _, s in pairs(M.by_id) do
    if s.running or s.prompt_pending then
      s.running = false
      s.chat:note('[disconnected] ' .. reason .. ' (:AgentdSessions opens the session again)')
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
