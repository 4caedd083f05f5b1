-- The change a permission question proposes (ACP `diff` content in its toolCall), as
-- chat lines: a unified diff per file, cut at MAX_LINES so the question stays readable.
local M = {}

local MAX_LINES = 40

-- vim.diff was renamed vim.text.diff in Neovim 0.12; 0.7 has only the old name.
local diff = (vim.text and vim.text.diff) or vim.diff

local function relative(path, cwd)
  if cwd and path:sub(1, #cwd + 1) == cwd .. '/' then
    return path:sub(#cwd + 2)
  end
  return path
end

--- Chat lines for every diff in `tool_call.content`; an empty list when there is none.
function M.lines(tool_call, cwd)
  local lines = {}
  for _, item in ipairs(type(tool_call) == 'table' and tool_call.content or {}) do
    if item.type == 'diff' and type(item.path) == 'string' and type(item.newText) == 'string' then
      local old = type(item.oldText) == 'string' and item.oldText or ''
      local verb = type(item.oldText) == 'string' and 'change to' or 'new file'
      table.insert(lines, string.format('- proposed %s %s:', verb, relative(item.path, cwd)))
      local hunks = vim.split(diff(old, item.newText, { result_type = 'unified', ctxlen = 3 }), '\n', { plain = true })
      if hunks[#hunks] == '' then
        table.remove(hunks)
      end
      for index, hunk in ipairs(hunks) do
        if index > MAX_LINES then
          table.insert(lines, string.format('  ... %d more diff lines', #hunks - MAX_LINES))
          break
        end
        table.insert(lines, '  ' .. hunk)
      end
    end
  end
  return lines
end

return M
