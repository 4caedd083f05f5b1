-- Answers session/request_permission with vim.ui.select, one question at a time: two
-- pickers open at once (parallel tool calls) would fight over the screen, and an
-- asynchronous picker (telescope, dressing, fzf-lua) must not be stacked on itself.
local proposed_change = require('agentd.proposed_change')

local M = {}

-- Questions waiting for the user: { params, respond, id, chat }.
local queue = {}
local asking = nil
-- Request ids the daemon withdrew ($/cancel_request) before the user answered.
local withdrawn = {}

local function label(params)
  local call = params.toolCall or {}
  local title = call.title or call.toolCallId or 'a tool call'
  local reason = type(call._meta) == 'table' and type(call._meta.agentd) == 'table' and call._meta.agentd.reason
  if reason then
    title = title .. ' (' .. reason .. ')'
  end
  return title
end

local ask_next

local function ask(question)
  asking = question
  local title = label(question.params)
  local options = question.params.options or {}
  -- The proposed change goes in the chat first, where it can be read while choosing.
  local change = proposed_change.lines(question.params.toolCall, question.cwd)
  if question.chat and #change > 0 then
    question.chat:proposed_change(change)
  end
  vim.ui.select(options, {
    prompt = 'agentd: allow ' .. title .. '?',
    kind = 'agentd.permission',
    format_item = function(option)
      return option.name
    end,
  }, function(choice)
    -- Some pickers call back twice or from a fast context; answer once, on the main loop.
    if asking ~= question then
      return
    end
    asking = nil
    vim.schedule(function()
      if choice then
        question.respond({ outcome = { outcome = 'selected', optionId = choice.optionId } })
      else
        question.respond({ outcome = { outcome = 'cancelled' } })
      end
      if question.chat then
        local answer = choice and choice.name or 'cancelled'
        if withdrawn[question.id] then
          answer = answer .. ' (too late: the turn had stopped)'
          withdrawn[question.id] = nil
        end
        question.chat:permission(title, answer)
      end
      ask_next()
    end)
  end)
end

ask_next = function()
  if asking or #queue == 0 then
    return
  end
  ask(table.remove(queue, 1))
end

--- A permission question from the daemon; `chat` shows the proposed change and the answer
--- (nil for unknown sessions); paths in it are shown relative to `cwd`.
function M.request(params, respond, id, chat, cwd)
  table.insert(queue, { params = params, respond = respond, id = id, chat = chat, cwd = cwd })
  ask_next()
end

--- The daemon no longer waits for this request: drop it if it has not been shown yet.
function M.withdraw(id)
  for index, question in ipairs(queue) do
    if question.id == id then
      table.remove(queue, index)
      question.respond({ outcome = { outcome = 'cancelled' } })
      return
    end
  end
  if asking and asking.id == id then
    -- A picker on screen cannot be closed from here; its answer will be ignored.
    withdrawn[id] = true
  end
end

return M
