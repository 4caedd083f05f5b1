-- The plugin end to end against a real daemon (test/clients/neovim-client.test.ts queues
-- the model's replies in this order): a tool call with its permission question, a turn
-- held in flight then steered and aborted, one interrupted by a steer, a visual selection as context, a failed turn,
-- a follow-up, mode and model pickers, the session picker and :checkhealth.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local h = dofile(here .. '/helpers.lua')

h.run(function()
  h.load_plugin()
  h.stub_select()
  local workspace = h.env('AGENTD_NVIM_WORKSPACE')
  vim.cmd('cd ' .. vim.fn.fnameescape(workspace))
  local agentd = require('agentd')
  agentd.setup({ cmd = { h.env('AGENTD_NVIM_NODE'), h.env('AGENTD_NVIM_CLI'), 'serve', '--stdio' } })
  local summary = {}

  -- A new session in the working directory.
  local created
  agentd.new_session({
    on_done = function(s, err)
      created = s or err
    end,
  })
  h.wait('session/new', function()
    return created ~= nil
  end)
  local s = assert(agentd.current(), 'no session: ' .. vim.inspect(created))
  summary.sessionId = s.id
  summary.modes = s.modes

  -- 1. The model calls `write`; the permission question is answered "Allow once".
  h.next_choice(h.by('kind', 'allow_once'))
  local first
  agentd.prompt('Create hello.txt', {
    on_done = function(ending)
      first = ending
    end,
  })
  -- The prompt returned before the turn ended: it streams in the background.
  summary.returnedBeforeTheTurnEnded = first == nil and s.prompt_pending
  h.wait('the tool-call turn', function()
    return first ~= nil
  end)

  -- 2. A turn whose model reply stalls mid-stream: steer it, then abort it.
  local held
  agentd.prompt('Start a long job', {
    on_done = function(ending)
      held = ending
    end,
  })
  h.wait('the held reply to start streaming', function()
    return h.has_line(s.chat.buf, 'Working on it')
  end)
  local steered
  agentd.steer('Also mention the tests', {
    on_done = function(err, result)
      steered = { err = err, result = result }
    end,
  })
  h.wait('the steer answer and the queue event', function()
    return steered ~= nil and s.queue ~= nil and s.queue.steering == 1
  end)
  summary.queueAfterSteer = s.queue
  local aborted
  agentd.abort({
    on_done = function(err, result)
      aborted = { err = err, result = result }
    end,
  })
  h.wait('the abort answer and the cancelled prompt', function()
    return aborted ~= nil and held ~= nil
  end)
  summary.steer = steered
  summary.abort = aborted

  -- 2b. :AgentdSteer! ends a stalled reply at once; the model answers the message next.
  local interrupted = #s.endings
  agentd.prompt('Draft a plan')
  h.wait('the second held reply', function()
    return h.has_line(s.chat.buf, 'Drafting')
  end)
  vim.cmd('AgentdSteer! Stop and summarise')
  h.wait('the interrupted turn', function()
    return #s.endings > interrupted
  end)

  -- 3. A linewise visual selection sent with :'<,'>AgentdPrompt.
  local sample = workspace .. '/sample.lua'
  vim.fn.writefile({ 'local function answer()', '  return 42', 'end', 'return answer' }, sample)
  vim.cmd('edit ' .. vim.fn.fnameescape(sample))
  vim.cmd('normal! 2GVj\27')
  local before = #s.endings
  vim.cmd("'<,'>AgentdPrompt What does this return?")
  h.wait('the selection turn', function()
    return #s.endings > before
  end)
  -- A charwise selection of "42" on line 2 (the block is built, not sent).
  vim.cmd('normal! 2G$hv$\27')
  summary.charwiseBlock = require('agentd.selection').block(0, 2, 2)

  -- 4. The provider fails: the turn ends with the error.
  local failed
  agentd.prompt('This one fails', {
    on_done = function(ending)
      failed = ending
    end,
  })
  h.wait('the failed turn', function()
    return failed ~= nil
  end)

  -- 5. A follow-up queued while a slow reply streams continues the same turn.
  local followed_turn
  agentd.prompt('Count to one', {
    on_done = function(ending)
      followed_turn = ending
    end,
  })
  h.wait('the slow reply to start', function()
    return h.has_line(s.chat.buf, 'One')
  end)
  local followed
  agentd.follow_up('Now say bye', {
    on_done = function(err, result)
      followed = { err = err, result = result }
    end,
  })
  h.wait('the follow-up turn', function()
    return followed ~= nil and followed_turn ~= nil
  end)
  summary.followUp = followed

  -- 6. :AgentdMode and :AgentdModel through vim.ui.select.
  h.next_choice(h.by('id', 'plan'))
  vim.cmd('AgentdMode')
  h.wait('the mode switch', function()
    return s.modes.currentModeId == 'plan'
  end)
  h.next_choice(function(items)
    return items[1]
  end)
  local notes = #h.lines(s.chat.buf)
  vim.cmd('AgentdModel')
  h.wait('the model choice', function()
    return #h.lines(s.chat.buf) > notes
  end)
  summary.model = s:config_option('model').currentValue

  -- 7. :AgentdSessions lists the stored session; picking it keeps it current.
  h.next_choice(h.by('sessionId', s.id))
  vim.cmd('AgentdSessions')
  h.wait('the session picker', function()
    return #h.selects >= 4
  end)

  -- 8. :checkhealth agentd while connected.
  vim.cmd('checkhealth agentd')
  summary.health = h.lines(0)

  summary.endings = s.endings
  summary.selects = h.selects
  summary.lines = h.lines(s.chat.buf)
  summary.current = agentd.current().id
  return summary
end)
