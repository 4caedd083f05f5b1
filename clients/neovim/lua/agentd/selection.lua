-- Lines of a buffer (a visual selection or a command range) as prompt context: an ACP
-- `resource` block (EmbeddedResource with TextResourceContents) whose URI names the
-- file and, in its fragment, the lines (`file:///src/a.lua#L3-L7`, as GitHub and most
-- models read it); the daemon passes the URI and the text to the model together.
local M = {}

local api = vim.api

local function uri_of(buf)
  local name = api.nvim_buf_get_name(buf)
  if name == '' then
    return 'untitled:buffer-' .. buf
  end
  if name:match('^%a[%w+.-]*://') then
    -- Already a URI (fugitive://, oil://, …).
    return name
  end
  return vim.uri_from_fname(vim.fn.fnamemodify(name, ':p'))
end

local function fragment(line1, line2)
  if line1 == line2 then
    return '#L' .. line1
  end
  return string.format('#L%d-L%d', line1, line2)
end

-- A charwise visual selection ('v') covering exactly these lines: cut the first and
-- last lines at the marks. Linewise ('V') and blockwise selections send whole lines.
local function charwise_cut(buf, line1, line2, lines)
  if buf ~= api.nvim_get_current_buf() or vim.fn.visualmode() ~= 'v' then
    return lines
  end
  local first, last = vim.fn.getpos("'<"), vim.fn.getpos("'>")
  if first[2] ~= line1 or last[2] ~= line2 then
    return lines
  end
  local end_col = last[3]
  -- Include the whole character under the end mark (it marks the character's first byte).
  local tail = lines[#lines]
  if end_col <= #tail then
    local lead = tail:byte(end_col)
    local width = lead >= 0xF0 and 4 or lead >= 0xE0 and 3 or lead >= 0xC0 and 2 or 1
    end_col = end_col - 1 + width
  end
  lines[#lines] = tail:sub(1, end_col)
  lines[1] = lines[1]:sub(first[3])
  return lines
end

--- The resource block for lines line1..line2 (1-based, inclusive) of buffer buf.
function M.block(buf, line1, line2)
  buf = (buf == nil or buf == 0) and api.nvim_get_current_buf() or buf
  if line1 > line2 then
    line1, line2 = line2, line1
  end
  local lines = api.nvim_buf_get_lines(buf, line1 - 1, line2, false)
  lines = charwise_cut(buf, line1, line2, lines)
  return {
    type = 'resource',
    resource = {
      uri = uri_of(buf) .. fragment(line1, line2),
      text = table.concat(lines, '\n'),
    },
  }
end

return M
