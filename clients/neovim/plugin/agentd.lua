-- The :Agentd* commands. Only commands live here: the plugin's code loads on first use.
if vim.g.loaded_agentd then
  return
end
vim.g.loaded_agentd = true

if vim.fn.has('nvim-0.7') == 0 then
  vim.api.nvim_echo({ { 'agentd.nvim needs Neovim 0.7 or later', 'ErrorMsg' } }, true, {})
  return
end

local function agentd()
  return require('agentd')
end

-- A range (`:'<,'>AgentdPrompt`, `:12,20AgentdPrompt`) sends those lines as context.
local function range_of(opts)
  if opts.range > 0 then
    return { opts.line1, opts.line2 }
  end
  return nil
end

local command = vim.api.nvim_create_user_command

command('AgentdPrompt', function(opts)
  agentd().prompt(opts.args, { range = range_of(opts) })
end, { nargs = '*', range = true, desc = 'agentd: send a prompt (with a range: those lines as context)' })

command('AgentdSteer', function(opts)
  agentd().steer(opts.args, { range = range_of(opts), interrupt = opts.bang })
end, { nargs = '*', range = true, bang = true, desc = 'agentd: steer the running turn (! interrupts the reply in flight)' })

command('AgentdFollowUp', function(opts)
  agentd().follow_up(opts.args, { range = range_of(opts) })
end, { nargs = '*', range = true, desc = 'agentd: queue a message for when the turn would end' })

command('AgentdAbort', function()
  agentd().abort()
end, { nargs = 0, desc = 'agentd: stop the running turn now' })

command('AgentdCancel', function()
  agentd().cancel()
end, { nargs = 0, desc = 'agentd: cancel the running turn (ACP session/cancel)' })

command('AgentdNew', function()
  agentd().new_session()
end, { nargs = 0, desc = 'agentd: start a new session' })

command('AgentdSessions', function()
  agentd().sessions()
end, { nargs = 0, desc = 'agentd: pick a stored session to open' })

command('AgentdMode', function(opts)
  agentd().mode(opts.args)
end, {
  nargs = '?',
  complete = function()
    return agentd().complete('mode')
  end,
  desc = 'agentd: switch mode (build, plan, explore, ...)',
})

command('AgentdModel', function(opts)
  agentd().model(opts.args)
end, {
  nargs = '?',
  complete = function()
    return agentd().complete('model')
  end,
  desc = 'agentd: choose the model',
})

command('AgentdChat', function()
  agentd().chat()
end, { nargs = 0, desc = "agentd: show the current session's chat" })
