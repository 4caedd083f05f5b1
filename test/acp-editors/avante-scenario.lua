-- avante.nvim driven as a user would, for test/acp-editors/avante.check.ts: run by
-- `nvim --headless -u NONE -c 'luafile THIS'` in the workspace, with AVANTE_PLUGINS (the
-- folder of checkouts), AVANTE_CONFIG (docs/editors.md's block, verbatim) and AVANTE_OUT
-- (where the JSON summary goes). Everything is read back from avante's own sidebar buffers.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local nvim_scenario = dofile(here .. '/nvim-scenario.lua')
local env = nvim_scenario.env

for _, name in ipairs({ 'nui.nvim', 'plenary.nvim', 'avante.nvim' }) do
  vim.opt.runtimepath:append(env('AVANTE_PLUGINS') .. '/' .. name)
end
-- -u NONE loads no plugin scripts: source avante's own (its :Avante* commands), as a plugin manager would.
vim.cmd('runtime plugin/avante.lua')

local summary = { notices = {} }
-- Errors avante reports go through vim.notify; keep them for the check's failure message.
vim.notify = function(msg, level)
  table.insert(summary.notices, { level = level, msg = tostring(msg) })
end

local function sidebar()
  return require('avante').get()
end

local function result_lines()
  local sb = sidebar()
  if not sb or not sb.containers.result then return {} end
  return vim.api.nvim_buf_get_lines(sb.containers.result.bufnr, 0, -1, false)
end

-- The status avante draws under the reply ("succeeded", "cancelled", ...), a virtual line.
local function state_shown()
  local sb = sidebar()
  if not sb or not sb.containers.result then return nil end
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(sb.containers.result.bufnr, -1, 0, -1, { details = true })) do
    for _, virt_line in ipairs(mark[4].virt_lines or {}) do
      local text = ''
      for _, chunk in ipairs(virt_line) do text = text .. chunk[1] end
      text = vim.trim(text)
      if text ~= '' then return text end
    end
  end
  return nil
end

-- Every distinct text the reply line took while it streamed in, per watched prefix.
local streamed = {}
local function watch_streaming(prefix)
  local seen = streamed[prefix] or {}
  streamed[prefix] = seen
  for _, line in ipairs(result_lines()) do
    if vim.startswith(line, prefix) and seen[#seen] ~= line then table.insert(seen, line) end
  end
end

local function wait(what, cond, timeout_ms)
  local ok = vim.wait(timeout_ms or 20000, function()
    for prefix in pairs(streamed) do watch_streaming(prefix) end
    return cond()
  end, 10)
  if not ok then error('timed out waiting for ' .. what .. '; the sidebar shows:\n' .. table.concat(result_lines(), '\n'), 2) end
end

local function line_matching(pattern)
  for i, line in ipairs(result_lines()) do
    if line:find(pattern) then return i, line end
  end
end

local function shows(text)
  return line_matching(vim.pesc(text)) ~= nil
end

local function keys(k)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(k, true, false, true), 'x', false)
end

-- A question typed into the sidebar's input box and submitted with its <CR> (normal mode).
local function type_and_submit(question)
  local input = sidebar().containers.input
  vim.api.nvim_set_current_win(input.winid)
  vim.cmd('stopinsert')
  vim.api.nvim_buf_set_lines(input.bufnr, 0, -1, false, { question })
  keys('<CR>')
end

local function scenario()
  dofile(env('AVANTE_CONFIG'))

  -- 1. :AvanteAsk opens the sidebar, which connects (initialize, session/new) at once. The
  -- questions are typed once it has: `:AvanteAsk QUESTION` on a closed sidebar races that
  -- connection with a second `agentd acp` and may leave the follow-ups in another session.
  vim.cmd('AvanteAsk')
  wait('the session', function() return sidebar() and sidebar().chat_history.acp_session_id ~= nil end)
  summary.connectedSession = sidebar().chat_history.acp_session_id
  -- The model asks to write hello.txt first.
  streamed['Wrote'] = {}
  type_and_submit('Create hello.txt')
  wait('the permission buttons', function() return line_matching('Waiting for Confirmation') ~= nil end)
  local row, buttons = line_matching('Waiting for Confirmation')
  summary.buttons = buttons
  summary.waiting = vim.deepcopy(result_lines())
  -- The user is on the button line with the first (focused) button, "Allow once", and presses <CR>.
  local result_win = sidebar().containers.result.winid
  vim.api.nvim_set_current_win(result_win)
  vim.api.nvim_win_set_cursor(result_win, { row, 0 })
  keys('<CR>')
  wait('the first reply', function() return shows('Wrote hello.txt for you.') and state_shown() == 'succeeded' end)
  summary.first = { lines = result_lines(), state = state_shown() }

  -- 2. A reply that stalls after its first words, stopped with :AvanteStop.
  type_and_submit('Start a long job')
  wait('the stalled reply', function() return shows('Working on it') end)
  vim.cmd('AvanteStop')
  wait('the stop', function() return state_shown() == 'cancelled' end)
  summary.stopped = { lines = result_lines(), state = state_shown() }

  -- 3. Asked at once (avante sends it without waiting for the stopped prompt's answer): the session still answers.
  type_and_submit('Say bye')
  wait('the last reply', function() return shows('Bye.') and state_shown() == 'succeeded' end)
  summary.lines = result_lines()
  summary.state = state_shown()
  summary.streamed = streamed
  summary.sessionId = sidebar().chat_history.acp_session_id
  return summary
end

nvim_scenario.run(scenario, summary, 'AVANTE_OUT', function(failed)
  failed.lines = result_lines()
end)
