-- Turns that stop at a limit (the test's project config sets maxTurns = 1 and a budget):
-- a tool call that would need a second model request, a turn that spends past the
-- budget, then a prompt refused because the budget is spent.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local h = dofile(here .. '/helpers.lua')

h.run(function()
  h.load_plugin()
  local workspace = h.env('AGENTD_NVIM_WORKSPACE')
  vim.cmd('cd ' .. vim.fn.fnameescape(workspace))
  local agentd = require('agentd')
  agentd.setup({ cmd = { h.env('AGENTD_NVIM_NODE'), h.env('AGENTD_NVIM_CLI'), 'serve', '--stdio' } })

  for _, text in ipairs({ 'List the files', 'Say something pricey', 'One more' }) do
    local ending
    agentd.prompt(text, {
      on_done = function(e)
        ending = e
      end,
    })
    h.wait('the turn "' .. text .. '"', function()
      return ending ~= nil
    end)
  end
  local s = agentd.current()
  return { endings = s.endings, lines = h.lines(s.chat.buf) }
end)
