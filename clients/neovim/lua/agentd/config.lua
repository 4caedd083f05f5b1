-- The plugin's options: defaults, and what setup() merged into them.
local M = {}

M.defaults = {
  -- How to reach agentd. `agentd acp` connects to the shared daemon of the data directory,
  -- starting it when none runs, so every editor shares its sessions; `agentd serve --stdio`
  -- runs a daemon for this editor alone when no shared one runs.
  cmd = { 'agentd', 'acp' },
  -- Extra environment for that process (nil: Neovim's own environment, unchanged).
  env = nil,
  -- Working directory of new sessions; nil: Neovim's current directory at the time.
  cwd = nil,
  chat = {
    -- Where the chat window opens: 'right', 'left', 'bottom' or 'top'.
    position = 'right',
    -- Width (right/left) or height (bottom/top): a fraction of the editor, or columns/lines.
    size = 0.4,
    -- The chat is Markdown-ish text; 'markdown' gives headings and code blocks colour.
    filetype = 'markdown',
    -- Show the chat when a prompt is sent or a session is opened.
    auto_open = true,
    -- Also show the model's reasoning (agent_thought_chunk), as quoted lines.
    show_thoughts = false,
  },
}

M.options = vim.deepcopy(M.defaults)
M.did_setup = false

function M.setup(opts)
  opts = opts or {}
  -- Checked by hand: vim.validate's table form is deprecated from 0.11 on.
  for name, kind in pairs({ cmd = 'table', env = 'table', cwd = 'string', chat = 'table' }) do
    if opts[name] ~= nil and type(opts[name]) ~= kind then
      error(string.format('agentd.setup: %s must be a %s, got %s', name, kind, type(opts[name])), 2)
    end
  end
  if opts.cmd and (#opts.cmd == 0 or type(opts.cmd[1]) ~= 'string') then
    error("agentd.setup: cmd must be a list like { 'agentd', 'acp' }", 2)
  end
  local merged = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts)
  -- Lists are not merged index by index: a shorter cmd must not keep the default's tail.
  if opts.cmd then
    merged.cmd = vim.deepcopy(opts.cmd)
  end
  M.options = merged
  M.did_setup = true
  return M.options
end

return M
