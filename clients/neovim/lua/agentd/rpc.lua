-- JSON-RPC 2.0 with a child process over its stdin/stdout, one JSON message per line
-- (NDJSON, the daemon's default framing; PROTOCOL.md "Transports and framing").
--
-- Why not vim.lsp.rpc: up to Neovim 0.9 it answers a request from the daemon with the
-- dispatcher's return value, synchronously, so a permission question could not wait for
-- an asynchronous vim.ui.select (telescope, dressing, fzf-lua, snacks) without freezing the
-- editor; and 0.10 changed rpc.start()'s arguments and later versions renamed its
-- dispatchers. vim.loop is the same on every version from 0.7 on, and lets a request be
-- answered whenever the user has chosen.
local uv = vim.loop

local M = {}

-- Error codes this side produces for its own failures (JSON-RPC's server-error range).
M.errors = {
  -- The process ended or its pipe closed before the answer came.
  disconnected = -32099,
  internal = -32603,
  method_not_found = -32601,
}

local Connection = {}
Connection.__index = Connection

-- Keeps the last lines the process wrote on stderr, to say why it ended.
local STDERR_LINES = 20

local function close_handle(handle)
  if handle and not handle:is_closing() then
    handle:close()
  end
end

-- `{ NAME = value }` on top of Neovim's own environment, as the "NAME=value" list uv wants.
local function environment(extra)
  if not extra then
    return nil
  end
  local env = vim.tbl_extend('force', vim.fn.environ(), extra)
  local list = {}
  for name, value in pairs(env) do
    table.insert(list, name .. '=' .. tostring(value))
  end
  return list
end

--- Starts `cmd` (a list: program and arguments) and speaks JSON-RPC with it.
--- handlers.on_request(method, params, respond, id): answer later with respond(result) or respond(nil, err).
--- handlers.on_notification(method, params); handlers.on_exit(code, signal, stderr_text).
--- All handlers run on the main loop (scheduled), in the order the messages arrived.
--- Returns the connection, or nil and why it could not start.
function M.start(cmd, opts, handlers)
  opts = opts or {}
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local self = setmetatable({
    next_id = 0,
    pending = {},
    closed = false,
    stderr_lines = {},
    handlers = handlers,
    stdin = stdin,
    stdout = stdout,
    stderr = stderr,
  }, Connection)

  local handle, pid = uv.spawn(cmd[1], {
    args = vim.list_slice(cmd, 2),
    stdio = { stdin, stdout, stderr },
    cwd = opts.cwd,
    env = environment(opts.env),
  }, function(code, signal)
    self.exit = { code = code, signal = signal }
    close_handle(stdin)
    -- The last messages may still be in the pipe: finish once stdout is drained, or soon.
    local timer = uv.new_timer()
    timer:start(1000, 0, function()
      timer:close()
      self:_finish()
    end)
    if self.eof then
      self:_finish()
    end
  end)
  if not handle then
    close_handle(stdin)
    close_handle(stdout)
    close_handle(stderr)
    return nil, string.format('cannot start %s: %s', cmd[1], tostring(pid))
  end
  self.handle, self.pid = handle, pid

  -- A message may arrive in many reads, and one read may hold many messages.
  local parts = {}
  stdout:read_start(function(err, chunk)
    if err or not chunk then
      self.eof = true
      if self.exit then
        self:_finish()
      end
      return
    end
    local start = 1
    while true do
      local newline = chunk:find('\n', start, true)
      if not newline then
        if start <= #chunk then
          table.insert(parts, chunk:sub(start))
        end
        return
      end
      table.insert(parts, chunk:sub(start, newline - 1))
      local line = table.concat(parts)
      parts = {}
      start = newline + 1
      -- Decoding and dispatch need the main loop (this callback runs in libuv's fast context).
      vim.schedule(function()
        self:_receive(line)
      end)
    end
  end)
  stderr:read_start(function(_, chunk)
    if not chunk then
      return
    end
    for line in chunk:gmatch('[^\n]+') do
      table.insert(self.stderr_lines, line)
      if #self.stderr_lines > STDERR_LINES then
        table.remove(self.stderr_lines, 1)
      end
    end
  end)
  return self
end

function Connection:_write(message)
  if self.closed or self.stdin:is_closing() then
    return false
  end
  self.stdin:write(vim.json.encode(message) .. '\n')
  return true
end

--- Sends a request; callback(err, result) runs once, with err = {code, message, data}.
function Connection:request(method, params, callback)
  self.next_id = self.next_id + 1
  local id = self.next_id
  if not self:_write({ jsonrpc = '2.0', id = id, method = method, params = params }) then
    vim.schedule(function()
      callback({ code = M.errors.disconnected, message = 'agentd is not running' })
    end)
    return nil
  end
  self.pending[id] = callback
  return id
end

function Connection:notify(method, params)
  return self:_write({ jsonrpc = '2.0', method = method, params = params })
end

function Connection:_receive(line)
  line = line:gsub('\r$', '')
  if not line:find('%S') then
    return
  end
  local ok, message = pcall(vim.json.decode, line, { luanil = { object = true } })
  if not ok or type(message) ~= 'table' then
    return
  end
  if message.method and message.id ~= nil then
    self:_serve(message)
  elseif message.method then
    self.handlers.on_notification(message.method, message.params)
  elseif message.id ~= nil then
    local callback = self.pending[message.id]
    self.pending[message.id] = nil
    if callback then
      callback(message.error, message.error == nil and message.result or nil)
    end
  end
end

-- A request from the daemon: the handler answers through `respond`, now or later, once.
function Connection:_serve(message)
  local answered = false
  local function respond(result, err)
    if answered then
      return
    end
    answered = true
    if err then
      self:_write({ jsonrpc = '2.0', id = message.id, error = err })
    else
      self:_write({ jsonrpc = '2.0', id = message.id, result = result == nil and vim.NIL or result })
    end
  end
  local ok, err = pcall(self.handlers.on_request, message.method, message.params, respond, message.id)
  if not ok then
    respond(nil, { code = M.errors.internal, message = 'agentd.nvim: ' .. tostring(err) })
  end
end

-- Runs in libuv's fast context, once: the process has exited and its output is read.
function Connection:_finish()
  if self.finishing then
    return
  end
  self.finishing = true
  close_handle(self.stdin)
  close_handle(self.stdout)
  close_handle(self.stderr)
  close_handle(self.handle)
  vim.schedule(function()
    self:_closed(self.exit.code, self.exit.signal)
  end)
end

function Connection:_closed(code, signal)
  if self.closed then
    return
  end
  self.closed = true
  local stderr_text = table.concat(self.stderr_lines, '\n')
  local pending = self.pending
  self.pending = {}
  local reason = string.format('agentd exited (code %s%s)', tostring(code), signal ~= 0 and (', signal ' .. signal) or '')
  for _, callback in pairs(pending) do
    callback({ code = M.errors.disconnected, message = reason, data = { stderr = stderr_text } })
  end
  if self.handlers.on_exit then
    self.handlers.on_exit(code, signal, stderr_text)
  end
end

--- Closes stdin, which ends a stdio daemon (or its bridge) cleanly; kills it if it lingers.
function Connection:stop()
  if self.closed then
    return
  end
  close_handle(self.stdin)
  local handle = self.handle
  vim.defer_fn(function()
    if not self.closed and handle and not handle:is_closing() then
      handle:kill('sigterm')
    end
  end, 2000)
end

--- One line for an error answer: its message, and the code's name when it is a known one.
function M.describe_error(err)
  if type(err) ~= 'table' then
    return tostring(err)
  end
  return tostring(err.message or ('error ' .. tostring(err.code)))
end

return M
