-- agentd.proposed_change on its own: the chat lines for a permission question's diffs.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local h = dofile(here .. '/helpers.lua')

h.run(function()
  h.load_plugin()
  local proposed = require('agentd.proposed_change')
  local long = {}
  for i = 1, 100 do
    table.insert(long, 'line ' .. i)
  end
  return {
    change = proposed.lines({ content = { { type = 'diff', path = '/ws/src/a.lua', oldText = 'one\ntwo\n', newText = 'one\nTWO\n' } } }, '/ws'),
    outside = proposed.lines({ content = { { type = 'diff', path = '/elsewhere/b.txt', oldText = 'x\n', newText = 'y\n' } } }, '/ws'),
    long = proposed.lines({ content = { { type = 'diff', path = '/ws/long.txt', newText = table.concat(long, '\n') .. '\n' } } }, '/ws'),
    none = proposed.lines({ content = { { type = 'content', content = { type = 'text', text = 'hi' } } } }, '/ws'),
    no_content = proposed.lines({ title = 'Run ls' }, '/ws'),
  }
end)
