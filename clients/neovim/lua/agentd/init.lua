-- agentd for Neovim: the public functions behind the :Agentd* commands.
--
-- Every function returns at once. A turn streams into the session's chat buffer in the
-- background; pass `on_done` to hear how it ended. The connection to agentd starts on
-- first use (see config.lua `cmd`).
local client = require('agentd.client')
local config = require('agentd.config')
local permission = require('agentd.permission')
local pickers = require('agentd.pickers')
local selection = require('agentd.selection')
local session = require('agentd.session')
local rpc = require('agentd.rpc')

local M = {}

local function notify(message, level)
  vim.notify('agentd: ' .. message, level or vim.log.levels.INFO)
end

local function notify_error(what, err)
  notify(what .. ': ' .. rpc.describe_error(err), vim.log.levels.ERROR)
end

client.route({
  on_update = session.on_update,
  on_event = session.on_event,
  on_permission = function(params, respond, id)
    local s = session.by_id[params.sessionId]
    permission.request(params, respond, id, s and s.chat, s and s.cwd)
  end,
  on_withdrawn = permission.withdraw,
  on_exit = function(reason, was_ready)
    session.on_disconnect(reason)
    if was_ready then
      notify(reason, vim.log.levels.WARN)
    end
  end,
})

--- Sets options (see :help agentd-setup). Calling it is optional: the defaults work.
function M.setup(opts)
  config.setup(opts)
end

local function show(s)
  if config.options.chat.auto_open then
    s.chat:show()
  end
end

local function session_cwd(opts)
  return opts.cwd or config.options.cwd or vim.fn.getcwd()
end

-- The current session, or a new one in the working directory.
local function with_session(fn)
  if session.current then
    return fn(session.current)
  end
  session.new(session_cwd({}), function(s, err)
    if not s then
      return notify_error('cannot create a session', err)
    end
    show(s)
    fn(s)
  end)
end

local function require_session(what)
  if not session.current then
    notify('no session to ' .. what .. ': send a prompt or use :AgentdNew / :AgentdSessions first', vim.log.levels.WARN)
  end
  return session.current
end

-- Asks for the text when none was given (an empty answer cancels).
local function with_text(text, label, fn)
  if text and text ~= '' then
    return fn(text)
  end
  vim.ui.input({ prompt = label }, function(input)
    if input and input ~= '' then
      fn(input)
    end
  end)
end

-- Context blocks for opts.range ({line1, line2} of opts.bufnr or the current buffer) and
-- opts.context (ready blocks), read now, before any input prompt changes the buffer.
local function context_of(opts)
  local blocks = {}
  if opts.range then
    table.insert(blocks, selection.block(opts.bufnr or 0, opts.range[1], opts.range[2]))
  end
  vim.list_extend(blocks, opts.context or {})
  return blocks
end

local function message(text, context)
  local blocks = { { type = 'text', text = text } }
  vim.list_extend(blocks, context)
  return blocks
end

--- Sends a prompt to the current session (creating one if needed) and returns at once.
--- opts: range = {line1, line2} (adds those lines as a resource block), bufnr, context
--- (extra ContentBlocks), on_done(ending) (see turn_end.lua).
function M.prompt(text, opts)
  opts = opts or {}
  local context = context_of(opts)
  with_text(text, 'agentd prompt: ', function(input)
    with_session(function(s)
      show(s)
      s:prompt(message(input, context), opts.on_done)
    end)
  end)
end

-- Steer and follow-up alike: the session, the text (asked for when absent), the context.
local function deliver(what, text, opts, send)
  opts = opts or {}
  local s = require_session(what)
  if not s then
    return
  end
  local context = context_of(opts)
  with_text(text, 'agentd ' .. what:gsub(' ', '-') .. ': ', function(input)
    send(s, message(input, context), opts)
  end)
end

--- Delivers a message into the running turn at its next safe point (or starts a turn).
--- opts: interrupt (end the model response in flight at once), range, context, on_done(err, result).
function M.steer(text, opts)
  deliver('steer', text, opts, function(s, msg, o)
    s:steer(msg, { interrupt = o.interrupt }, o.on_done)
  end)
end

--- Queues a message for when the agent would otherwise stop (or starts a turn).
function M.follow_up(text, opts)
  deliver('follow up', text, opts, function(s, msg, o)
    s:follow_up(msg, o.on_done)
  end)
end

--- Stops the running turn now (model stream, tools, questions) and drops queued messages.
function M.abort(opts)
  opts = opts or {}
  local s = require_session('abort')
  if s then
    s:abort(opts.on_done)
  end
end

--- ACP cancel of the running turn (a notification; the prompt answers `cancelled`).
function M.cancel()
  local s = require_session('cancel')
  if s then
    s:cancel()
  end
end

--- Starts a new session and makes it current. opts: cwd, on_done(session, err).
function M.new_session(opts)
  opts = opts or {}
  session.new(session_cwd(opts), function(s, err)
    if not s then
      notify_error('cannot create a session', err)
    else
      show(s)
    end
    if opts.on_done then
      opts.on_done(s, err)
    end
  end)
end

--- Opens a stored session by id: history first, then its live updates. opts: cwd, on_done(session, err).
function M.load_session(id, opts)
  opts = opts or {}
  session.load(id, session_cwd(opts), function(s, err)
    if not s then
      notify_error('cannot load session ' .. id, err)
    else
      show(s)
    end
    if opts.on_done then
      opts.on_done(s, err)
    end
  end)
end

--- Picks a stored session (vim.ui.select) and opens it. opts: on_done(session, err).
function M.sessions(opts)
  opts = opts or {}
  session.list(function(list, err)
    if not list then
      return notify_error('cannot list sessions', err)
    end
    if #list == 0 then
      return notify('no stored sessions')
    end
    pickers.session(list, function(info)
      if info then
        M.load_session(info.sessionId, { cwd = info.cwd, on_done = opts.on_done })
      end
    end)
  end)
end

--- Switches the current session's mode (agent); without an id, picks one. opts: on_done(err).
function M.mode(mode_id, opts)
  opts = opts or {}
  local s = require_session('switch mode')
  if not s then
    return
  end
  local function set(id)
    s:set_mode(id, opts.on_done)
  end
  if mode_id and mode_id ~= '' then
    return set(mode_id)
  end
  if not s.modes then
    return notify('this session offers no modes', vim.log.levels.WARN)
  end
  pickers.mode(s.modes, function(mode)
    if mode then
      set(mode.id)
    end
  end)
end

--- Chooses the current session's model; without a value, picks one. opts: on_done(err).
function M.model(value, opts)
  opts = opts or {}
  local s = require_session('choose a model')
  if not s then
    return
  end
  local function set(v)
    s:set_config_option('model', v, opts.on_done)
  end
  if value and value ~= '' then
    return set(value)
  end
  local option = s:config_option('model')
  if not option then
    return notify('this session offers no model choice', vim.log.levels.WARN)
  end
  pickers.option(option, function(entry)
    if entry then
      set(entry.value)
    end
  end)
end

--- Shows the current session's chat.
function M.chat()
  local s = require_session('show')
  if s then
    s.chat:show()
  end
end

--- Connects now instead of on first use; on_done(ok, err).
function M.connect(on_done)
  client.with_connection(function(conn, err)
    if on_done then
      on_done(conn ~= nil, err)
    end
  end)
end

--- Disconnects from agentd (a daemon started for this editor ends; a shared one stays).
function M.stop()
  client.stop()
end

--- The current session (fields: id, cwd, chat.buf, modes, config_options, running,
--- prompt_pending, endings, usage, queue), or nil. Read it; do not change it.
function M.current()
  return session.current
end

--- Completion candidates for :AgentdMode ('mode') and :AgentdModel ('model').
function M.complete(kind)
  local s = session.current
  if not s then
    return {}
  end
  local items = {}
  if kind == 'mode' and s.modes then
    for _, mode in ipairs(s.modes.availableModes or {}) do
      table.insert(items, mode.id)
    end
  elseif kind == 'model' and s:config_option('model') then
    for _, entry in ipairs(pickers.values(s:config_option('model'))) do
      table.insert(items, entry.value)
    end
  end
  return items
end

return M
