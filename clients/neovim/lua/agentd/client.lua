-- The one connection to agentd: started on first use, initialized once, and the router of
-- everything the daemon sends (session updates, events, permission questions).
local config = require('agentd.config')
local rpc = require('agentd.rpc')

local M = {
  -- 'stopped' | 'starting' | 'ready'
  state = 'stopped',
  conn = nil,
  -- The initialize answer: agent info and `_meta.agentd` (version, features).
  info = nil,
  -- Why the last start or connection failed, for :checkhealth.
  last_error = nil,
  -- stop() was called: the exit that follows is expected.
  stopping = false,
}

-- Calls waiting for the connection to be ready.
local waiting = {}
-- Receivers of what the daemon sends, set by init.lua (which owns the sessions).
local routes = {
  on_update = function() end,
  on_event = function() end,
  on_permission = function(_, respond)
    respond({ outcome = { outcome = 'cancelled' } })
  end,
  on_withdrawn = function() end,
  on_exit = function() end,
}

function M.route(handlers)
  routes = vim.tbl_extend('force', routes, handlers)
end

local function flush(conn, err)
  local calls = waiting
  waiting = {}
  for _, call in ipairs(calls) do
    call(conn, err)
  end
end

-- The plugin's version, sent as clientInfo.
M.version = '0.1.0'

local function initialize_params()
  return {
    protocolVersion = 1,
    -- The plugin serves no fs/terminal methods; an empty object would encode as [] in Lua.
    clientCapabilities = {
      fs = { readTextFile = false, writeTextFile = false },
      terminal = false,
      -- `notice` updates are shown in the chat.
      session = { notices = vim.empty_dict() },
    },
    clientInfo = { name = 'agentd.nvim', title = 'agentd for Neovim', version = M.version },
    -- turn_end and the other rich events: how a turn another client started ended.
    _meta = { agentd = { events = true } },
  }
end

local handlers = {
  on_notification = function(method, params)
    if method == 'session/update' then
      routes.on_update(params)
    elseif method == 'agentd/event' then
      routes.on_event(params)
    elseif method == '$/cancel_request' or method == '$/cancelRequest' then
      -- The daemon no longer needs an answer (the turn was cancelled meanwhile).
      routes.on_withdrawn(params and (params.requestId or params.id))
    end
  end,
  on_request = function(method, params, respond, id)
    if method == 'session/request_permission' then
      routes.on_permission(params, respond, id)
    else
      respond(nil, { code = rpc.errors.method_not_found, message = 'agentd.nvim does not serve ' .. method })
    end
  end,
  on_exit = function(code, signal, stderr)
    -- An exit after stop() was asked for: nothing to warn about.
    local was_ready = M.state == 'ready' and not M.stopping
    M.stopping = false
    M.state, M.conn, M.info = 'stopped', nil, nil
    local reason = string.format('agentd exited (code %s)', tostring(code))
    if stderr ~= '' then
      reason = reason .. ': ' .. stderr:gsub('%s+$', ''):match('[^\n]*$')
    end
    M.last_error = reason
    flush(nil, { code = rpc.errors.disconnected, message = reason })
    routes.on_exit(reason, was_ready, signal)
  end,
}

--- Calls fn(conn) once the daemon is connected and initialized, or fn(nil, err).
function M.with_connection(fn)
  if M.state == 'ready' then
    return fn(M.conn)
  end
  table.insert(waiting, fn)
  if M.state == 'starting' then
    return
  end
  M.state = 'starting'
  local opts = config.options
  local conn, err = rpc.start(opts.cmd, { env = opts.env }, handlers)
  if not conn then
    M.state, M.last_error = 'stopped', err
    return flush(nil, { code = rpc.errors.disconnected, message = err })
  end
  M.conn = conn
  conn:request('initialize', initialize_params(), function(init_err, result)
    if init_err then
      M.last_error = rpc.describe_error(init_err)
      conn:stop()
      M.state, M.conn = 'stopped', nil
      return flush(nil, init_err)
    end
    M.state, M.info, M.last_error = 'ready', result, nil
    flush(conn)
  end)
end

--- Sends a request once connected; callback(err, result).
function M.request(method, params, callback)
  M.with_connection(function(conn, err)
    if not conn then
      return callback(err)
    end
    conn:request(method, params, callback)
  end)
end

function M.notify(method, params)
  M.with_connection(function(conn)
    if conn then
      conn:notify(method, params)
    end
  end)
end

--- Disconnects: a stdio daemon ends with its stdin; a shared one keeps running.
function M.stop()
  if M.conn then
    M.stopping = true
    M.conn:stop()
  end
end

return M
