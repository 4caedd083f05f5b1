-- A session's chat buffer: what was asked, the reply as it streams, tool calls with their
-- status, and how each turn ended. The buffer is append-only (except a tool call's own
-- line, rewritten in place as its status changes), so remembered line numbers stay true.
local config = require('agentd.config')

local M = {}
local Chat = {}
Chat.__index = Chat

local api = vim.api

-- vim.bo/vim.wo work the same on 0.7 and later (nvim_buf_set_option is deprecated since 0.10).
local function create_buffer(session_id)
  local buf = api.nvim_create_buf(false, true)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  pcall(api.nvim_buf_set_name, buf, 'agentd://' .. session_id)
  vim.bo[buf].filetype = config.options.chat.filetype
  return buf
end

--- A new chat buffer for a session (not shown yet).
function M.new(session_id)
  local self = setmetatable({
    session_id = session_id,
    buf = create_buffer(session_id),
    -- What the last lines are: 'agent', 'thought', 'user', 'tool', 'note' (decides headers and blank lines).
    tail = nil,
    -- The message the last agent/user chunk belonged to.
    message_id = nil,
    -- toolCallId → { line = 0-based line, title, kind, status, detail }.
    tools = {},
  }, Chat)
  return self
end

-- The user may wipe the chat buffer; the next thing to show starts a fresh one.
function Chat:_ensure()
  if not api.nvim_buf_is_valid(self.buf) then
    self.buf = create_buffer(self.session_id)
    self.tail, self.message_id, self.tools = nil, nil, {}
  end
end

function Chat:lines()
  self:_ensure()
  return api.nvim_buf_get_lines(self.buf, 0, -1, false)
end

-- Windows showing the chat whose cursor is on the last line keep following the end.
function Chat:_followers()
  local followers = {}
  local last = api.nvim_buf_line_count(self.buf)
  for _, win in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_get_buf(win) == self.buf and api.nvim_win_get_cursor(win)[1] >= last then
      table.insert(followers, win)
    end
  end
  return followers
end

function Chat:_set(first, last, lines)
  self:_ensure()
  local followers = self:_followers()
  vim.bo[self.buf].modifiable = true
  api.nvim_buf_set_lines(self.buf, first, last, false, lines)
  vim.bo[self.buf].modifiable = false
  local count = api.nvim_buf_line_count(self.buf)
  for _, win in ipairs(followers) do
    api.nvim_win_set_cursor(win, { count, 0 })
  end
end

-- The buffer starts with one empty line; the first block replaces it.
function Chat:_is_empty()
  local lines = api.nvim_buf_get_lines(self.buf, 0, -1, false)
  return #lines == 1 and lines[1] == ''
end

function Chat:_append(lines)
  if self:_is_empty() then
    self:_set(0, -1, lines)
  else
    self:_set(-1, -1, lines)
  end
end

-- A new block (a heading or a status line) is set off from the previous one by a blank line.
function Chat:_block(lines, kind)
  self:_ensure()
  local block = {}
  if not self:_is_empty() then
    table.insert(block, '')
  end
  vim.list_extend(block, lines)
  self:_append(block)
  self.tail = kind
end

-- Appends streamed text: the first piece continues the last line, each newline starts one.
function Chat:_stream(text)
  self:_ensure()
  local pieces = vim.split(text, '\n', { plain = true })
  local last = api.nvim_buf_line_count(self.buf)
  local current = api.nvim_buf_get_lines(self.buf, last - 1, last, false)[1] or ''
  pieces[1] = current .. pieces[1]
  self:_set(last - 1, last, pieces)
end

local function text_of(content)
  if type(content) ~= 'table' then
    return ''
  end
  if content.type == 'text' then
    return content.text or ''
  elseif content.type == 'resource' and content.resource then
    return '[context] ' .. tostring(content.resource.uri)
  elseif content.type == 'resource_link' then
    return '[link] ' .. tostring(content.uri)
  elseif content.type == 'image' then
    return '[image]'
  end
  return '[' .. tostring(content.type) .. ']'
end

-- A chunk of a message: a heading when a new message starts, then the text streams in.
function Chat:_chunk(kind, heading, content, message_id)
  self:_ensure()
  local continues = self.tail == kind and (message_id == nil or message_id == self.message_id)
  if not continues then
    if message_id ~= nil and message_id == self.message_id then
      -- The same message goes on after a tool call: a new paragraph, no new heading.
      self:_block({ '' }, kind)
    else
      self:_block({ heading, '' }, kind)
    end
  end
  self.message_id = message_id
  local text = text_of(content)
  local last = api.nvim_buf_line_count(self.buf)
  if content and content.type ~= 'text' and api.nvim_buf_get_lines(self.buf, last - 1, last, false)[1] ~= '' then
    -- A context block or link gets a line of its own.
    self:_set(-1, -1, { text })
    return
  end
  self:_stream(text)
end

function Chat:agent_chunk(content, message_id)
  self:_chunk('agent', '## Agent', content, message_id)
end

function Chat:thought_chunk(content, message_id)
  if not config.options.chat.show_thoughts then
    return
  end
  local text = text_of(content):gsub('\n', '\n> ')
  if self.tail ~= 'thought' then
    self:_block({ '> ' }, 'thought')
  end
  self.message_id = message_id
  self:_stream(text)
end

--- A user message from another client or from the replayed history, chunk by chunk.
function Chat:user_chunk(content, message_id)
  self:_chunk('user', '## You', content, message_id)
end

--- What this editor sent: the heading says how (prompt, steer, follow-up).
function Chat:user_message(blocks, how)
  local heading = how and ('## You (' .. how .. ')') or '## You'
  local lines = { heading }
  for _, block in ipairs(blocks) do
    vim.list_extend(lines, vim.split(text_of(block), '\n', { plain = true }))
  end
  self:_block(lines, 'user')
  self.message_id = nil
end

local function tool_line(tool)
  local status = tool.status or 'pending'
  if tool.detail and tool.detail ~= '' then
    status = status .. ': ' .. tool.detail
  end
  return string.format('- tool: %s [%s]', tool.title or tool.id, status)
end

-- The first line of a failed call's text output, to say why it failed.
local function first_text(contents)
  for _, item in ipairs(contents or {}) do
    if item.type == 'content' and item.content and item.content.type == 'text' then
      return (item.content.text:match('[^\n]+') or '')
    end
  end
  return nil
end

function Chat:tool_call(update)
  self:_ensure()
  local tool = {
    id = update.toolCallId,
    title = update.title,
    kind = update.kind,
    status = update.status or 'pending',
  }
  if self.tail ~= 'tool' then
    self:_block({}, 'tool')
  end
  self:_append({ tool_line(tool) })
  tool.line = api.nvim_buf_line_count(self.buf) - 1
  self.tools[tool.id] = tool
  self.tail = 'tool'
end

function Chat:tool_call_update(update)
  self:_ensure()
  local tool = self.tools[update.toolCallId]
  if not tool then
    -- An update for a call this buffer never saw (it joined late): show it now.
    self:tool_call({ toolCallId = update.toolCallId, title = update.title or update.toolCallId, status = update.status })
    tool = self.tools[update.toolCallId]
  end
  if update.title then
    tool.title = update.title
  end
  if update.status then
    tool.status = update.status
  end
  if tool.status == 'failed' then
    tool.detail = first_text(update.content) or tool.detail
  end
  self:_set(tool.line, tool.line + 1, { tool_line(tool) })
end

--- The user's answer to a permission question.
--- The change a permission question proposes (lines from agentd.proposed_change), before the answer.
function Chat:proposed_change(lines)
  self:_block(lines, 'note')
end

function Chat:permission(title, answer)
  self:_block({ string.format('- permission: %s -> %s', title, answer) }, 'note')
end

function Chat:plan(entries)
  local lines = { '- plan:' }
  for _, entry in ipairs(entries or {}) do
    local mark = entry.status == 'completed' and 'x' or (entry.status == 'in_progress' and '~' or ' ')
    table.insert(lines, string.format('  [%s] %s', mark, entry.content or ''))
  end
  self:_block(lines, 'note')
end

--- A line of its own: turn endings, notices, mode changes, errors.
function Chat:note(text)
  self:_block(vim.split(text, '\n', { plain = true }), 'note')
end

--- Shows the chat in a window (unless one already shows it); focus stays where it was.
function Chat:show()
  self:_ensure()
  for _, win in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_get_buf(win) == self.buf then
      return win
    end
  end
  local opts = config.options.chat
  local vertical = opts.position == 'right' or opts.position == 'left'
  local total = vertical and vim.o.columns or vim.o.lines
  local size = opts.size <= 1 and math.floor(total * opts.size) or opts.size
  local placement = (opts.position == 'right' or opts.position == 'bottom') and 'botright' or 'topleft'
  local previous = api.nvim_get_current_win()
  vim.cmd(string.format('%s %d%s', placement, size, vertical and 'vsplit' or 'split'))
  local win = api.nvim_get_current_win()
  api.nvim_win_set_buf(win, self.buf)
  vim.wo[win].wrap = true
  vim.wo[win].linebreak = true
  api.nvim_win_set_cursor(win, { api.nvim_buf_line_count(self.buf), 0 })
  if api.nvim_win_is_valid(previous) then
    api.nvim_set_current_win(previous)
  end
  return win
end

return M
