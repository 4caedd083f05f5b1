-- CodeCompanion.nvim with docs/editors.md's configuration, driven as a user would, against
-- `agentd acp` (run by test/acp-editors/codecompanion.check.ts as
-- `nvim --headless -u NONE -i NONE -n -c 'luafile THIS'`, in the workspace):
--   1. open a chat (:CodeCompanionChat), type a prompt at the end of the chat buffer, press <CR>;
--      the model's write asks permission in the chat buffer, answered by pressing its accept key;
--   2. a second prompt whose reply stalls, stopped with the chat's `q`;
--   3. a third prompt, answered.
-- Every JSON-RPC message CodeCompanion sends or receives is recorded (a spy that calls
-- through), so the check can show what went over the wire. The JSON summary goes to
-- $AGENTD_CC_OUT; Neovim exits 0, or 1 after printing "scenario failed: ...".

local api = vim.api

local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local nvim_scenario = dofile(here .. '/nvim-scenario.lua')
local env = nvim_scenario.env

local summary = { rpc = {}, stages = {}, events = {} }

local function wait(what, cond, timeout_ms)
  if not vim.wait(timeout_ms or 20000, cond, 10) then
    error('timed out waiting for ' .. what, 2)
  end
end

local function lines(buf)
  return api.nvim_buf_get_lines(buf, 0, -1, false)
end

local function buffer_has(buf, text)
  for _, line in ipairs(lines(buf)) do
    if line:find(text, 1, true) then
      return true
    end
  end
  return false
end

--- The recorded messages that match `pred`.
local function rpc_where(pred)
  local found = {}
  for _, entry in ipairs(summary.rpc) do
    if pred(entry) then
      table.insert(found, entry)
    end
  end
  return found
end

-- Keys go through Neovim's input as typed ones: the chat buffer's own mappings run them.
local function press(chat, keys)
  api.nvim_set_current_win(chat.ui.winnr)
  vim.cmd('stopinsert')
  api.nvim_feedkeys(vim.keycode(keys), 'mx', false)
end

--- Types `text` as a new line at the end of the chat buffer (where the cursor sits after a reply).
local function type_prompt(chat, text)
  api.nvim_set_current_win(chat.ui.winnr)
  local buf = chat.bufnr
  local last = lines(buf)
  if last[#last] == '' then
    api.nvim_buf_set_lines(buf, #last - 1, #last, false, { text })
  else
    api.nvim_buf_set_lines(buf, #last, #last, false, { text })
  end
  api.nvim_win_set_cursor(chat.ui.winnr, { api.nvim_buf_line_count(buf), 0 })
end

local function idle(chat)
  return chat.current_request == nil
end

--- The chat buffer's lines, and the tool-status icons CodeCompanion overlays on them.
local function snapshot(buf)
  local ns = api.nvim_get_namespaces()['CodeCompanion-tool_icons']
  local icons = {}
  for _, mark in ipairs(ns and api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true }) or {}) do
    table.insert(icons, { line = mark[2] + 1, hl = mark[4].virt_text and mark[4].virt_text[1][2] })
  end
  return { lines = lines(buf), icons = icons }
end

local function run()
  vim.opt.runtimepath:append(env('AGENTD_CC_PLENARY'))
  vim.opt.runtimepath:append(env('AGENTD_CC_PLUGIN'))
  vim.cmd('runtime! plugin/codecompanion.lua')

  -- Record the JSON-RPC traffic (both directions) before any connection exists.
  local Connection = require('codecompanion.acp')
  local write_message, handle_rpc_message = Connection.write_message, Connection.handle_rpc_message
  Connection.write_message = function(self, data)
    local ok, msg = pcall(vim.json.decode, data)
    table.insert(summary.rpc, { dir = 'sent', msg = ok and msg or data })
    return write_message(self, data)
  end
  Connection.handle_rpc_message = function(self, line)
    local ok, msg = pcall(vim.json.decode, line)
    if ok then
      table.insert(summary.rpc, { dir = 'received', msg = msg })
    end
    return handle_rpc_message(self, line)
  end

  -- CodeCompanion's User events (ChatStopped, RequestFinished with its status, ...) in order.
  api.nvim_create_autocmd('User', {
    pattern = 'CodeCompanion*',
    callback = function(ev)
      local status = type(ev.data) == 'table' and ev.data.status or nil
      table.insert(summary.events, { event = ev.match, status = status })
    end,
  })

  -- The configuration block of docs/editors.md, exactly as a user copies it.
  dofile(env('AGENTD_CC_CONFIG'))

  vim.cmd('CodeCompanionChat')
  local chat = require('codecompanion').last_chat()
  assert(chat, ':CodeCompanionChat opened no chat')
  summary.adapter = { name = chat.adapter.name, type = chat.adapter.type, command = chat.adapter.commands.selected }
  -- The chat connects and opens a session as soon as it opens.
  wait('the ACP session', function()
    return chat.acp_connection ~= nil and chat.acp_connection.session_id ~= nil
  end)
  -- The environment CodeCompanion adds to `agentd acp`'s (the adapter's `env`, resolved).
  summary.agentEnv = chat.acp_connection.adapter_modified and chat.acp_connection.adapter_modified.env_replaced or {}

  -- Each change to the reply's line, to show the text arriving in pieces.
  summary.streamed = {}
  api.nvim_buf_attach(chat.bufnr, false, {
    on_lines = function(_, buf, _, first, _, last_new)
      for _, line in ipairs(api.nvim_buf_get_lines(buf, first, last_new, false)) do
        if line:find('^Wrote') and summary.streamed[#summary.streamed] ~= line then
          table.insert(summary.streamed, line)
        end
      end
    end,
  })

  -- 1. A prompt whose tool call asks permission; accepted with the approval prompt's key.
  type_prompt(chat, 'Create hello.txt')
  press(chat, '<CR>')
  local accept = require('codecompanion.config').interactions.shared.keymaps.accept_change.modes.n
  wait('the approval prompt', function()
    return vim.fn.maparg(accept, 'n', false, true).buffer == 1 and buffer_has(chat.bufnr, 'Please select an option')
  end)
  summary.stages.approval = snapshot(chat.bufnr)
  press(chat, accept)
  wait('the first reply', function()
    return idle(chat) and buffer_has(chat.bufnr, 'for you.')
  end)

  -- 2. A reply that stalls after its first chunk, stopped with the chat's stop key.
  type_prompt(chat, 'Start a long job')
  press(chat, '<CR>')
  wait('the stalled reply', function()
    return buffer_has(chat.bufnr, 'Working on it')
  end)
  local stop = require('codecompanion.config').interactions.chat.keymaps.stop.modes.n
  press(chat, stop)
  wait('the stopped turn', function()
    return idle(chat)
      and #rpc_where(function(e)
          return e.dir == 'received' and type(e.msg.result) == 'table' and e.msg.result.stopReason == 'cancelled'
        end)
        > 0
  end)
  -- Let a late update (if the agent sent one) land before reading the buffer.
  vim.wait(300)
  summary.stages.stopped = snapshot(chat.bufnr)

  -- 3. The session still takes a prompt.
  type_prompt(chat, 'Now say bye')
  press(chat, '<CR>')
  wait('the last reply', function()
    return idle(chat) and buffer_has(chat.bufnr, 'Bye.')
  end)
  summary.stages.last = snapshot(chat.bufnr)
end

nvim_scenario.run(run, summary, 'AGENTD_CC_OUT')
