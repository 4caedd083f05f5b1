-- Choices through vim.ui.select: a stored session to open, a mode, a model. Whatever
-- picker the user installed (telescope, dressing, fzf-lua, snacks) draws them.
local M = {}

--- sessions: ACP SessionInfo[]; on_choice(info or nil).
function M.session(sessions, on_choice)
  vim.ui.select(sessions, {
    prompt = 'agentd: open session',
    kind = 'agentd.session',
    format_item = function(info)
      local title = (info.title and info.title ~= '') and info.title or info.sessionId
      return string.format('%s  (%s, %s)', title, info.cwd, info.updatedAt or 'never')
    end,
  }, on_choice)
end

--- modes: ACP SessionModeState; on_choice(mode or nil).
function M.mode(modes, on_choice)
  vim.ui.select(modes.availableModes or {}, {
    prompt = 'agentd: mode',
    kind = 'agentd.mode',
    format_item = function(mode)
      local mark = mode.id == modes.currentModeId and '* ' or '  '
      local description = mode.description and (': ' .. mode.description) or ''
      return mark .. (mode.name or mode.id) .. description
    end,
  }, on_choice)
end

--- The values of a select option, its groups (SessionConfigSelectGroup) flattened.
function M.values(option)
  local values = {}
  for _, entry in ipairs(option.options or {}) do
    if entry.options then
      for _, inner in ipairs(entry.options) do
        table.insert(values, inner)
      end
    else
      table.insert(values, entry)
    end
  end
  return values
end

--- option: the ACP SessionConfigOption (e.g. id 'model'); on_choice(value entry or nil).
function M.option(option, on_choice)
  vim.ui.select(M.values(option), {
    prompt = 'agentd: ' .. (option.name or option.id),
    kind = 'agentd.' .. option.id,
    format_item = function(entry)
      local mark = entry.value == option.currentValue and '* ' or '  '
      local name = (entry.name and entry.name ~= entry.value) and (entry.name .. ' (' .. entry.value .. ')') or entry.value
      return mark .. name
    end,
  }, on_choice)
end

return M
