-- :checkhealth agentd. Neovim 0.7 reports through the health#report_* Vimscript
-- functions, 0.8–0.9 through vim.health.report_*, 0.10 and later through vim.health.start,
-- ok, …; the first that exists is used.
local M = {}

local function reporter()
  local h = vim.health or {}
  local function pick(name)
    return h[name] or h['report_' .. name] or function(...)
      return vim.fn['health#report_' .. name](...)
    end
  end
  return {
    start = pick('start'),
    ok = pick('ok'),
    info = pick('info'),
    warn = pick('warn'),
    error = pick('error'),
  }
end

-- `agentd --version`, from the configured command: its part before `serve` or `acp`.
local function version_command(cmd)
  local prefix = {}
  for _, part in ipairs(cmd) do
    if part == 'serve' or part == 'acp' then
      table.insert(prefix, '--version')
      return prefix
    end
    table.insert(prefix, part)
  end
  return nil
end

function M.check()
  local report = reporter()
  local config = require('agentd.config')
  local client = require('agentd.client')
  local cmd = config.options.cmd

  report.start('agentd')
  if vim.fn.has('nvim-0.7') == 1 then
    report.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor))
  else
    report.error('Neovim 0.7 or later is needed')
  end
  if config.did_setup then
    report.ok('setup() called')
  else
    report.info('setup() not called: using the defaults')
  end

  if vim.fn.executable(cmd[1]) == 1 then
    report.ok(string.format('%s found: %s', cmd[1], vim.fn.exepath(cmd[1])))
    local version = version_command(cmd)
    if version then
      local out = vim.fn.system(version)
      if vim.v.shell_error == 0 then
        report.ok('agentd version ' .. vim.trim(out):match('[^\n]*$'))
      else
        report.warn(table.concat(version, ' ') .. ' failed: ' .. vim.trim(out))
      end
    end
  else
    report.error(string.format('%s is not executable', cmd[1]), {
      'Put agentd on PATH (in an agentd checkout: npm install && npm link),',
      'or name it in require("agentd").setup({ cmd = { "/path/to/agentd", "acp" } })',
    })
  end

  if client.state == 'ready' then
    local meta = client.info and client.info._meta and client.info._meta.agentd or {}
    report.ok(string.format('connected to agentd %s (features: %s)', tostring(meta.version), table.concat(meta.features or {}, ', ')))
  elseif client.last_error then
    report.error('the last connection failed: ' .. client.last_error)
  else
    report.info('not connected yet: agentd starts on the first prompt (' .. table.concat(cmd, ' ') .. ')')
  end
end

return M
