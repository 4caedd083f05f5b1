-- What the daemon tells about a session, applied to it: ACP session/update (the reply,
-- tool calls, plans, modes, settings, usage, notices) and agentd/event (turns, queues,
-- retries), each kind one small function.
local turn_end = require('agentd.turn_end')

local M = {}

-- session/update, by `sessionUpdate`.
M.update = {
  agent_message_chunk = function(s, u)
    s.chat:agent_chunk(u.content, u.messageId)
  end,
  agent_thought_chunk = function(s, u)
    s.chat:thought_chunk(u.content, u.messageId)
  end,
  user_message_chunk = function(s, u)
    s.chat:user_chunk(u.content, u.messageId)
  end,
  tool_call = function(s, u)
    s.chat:tool_call(u)
  end,
  tool_call_update = function(s, u)
    s.chat:tool_call_update(u)
  end,
  plan = function(s, u)
    s.chat:plan(u.entries)
  end,
  current_mode_update = function(s, u)
    if s.modes then
      s.modes.currentModeId = u.currentModeId
    end
    s.chat:note('[mode] ' .. u.currentModeId)
  end,
  config_option_update = function(s, u)
    s.config_options = u.configOptions
  end,
  session_info_update = function(s, u)
    s.title = u.title or s.title
  end,
  usage_update = function(s, u)
    s.usage = { used = u.used, size = u.size, cost = u.cost }
  end,
  notice = function(s, u)
    local text = string.format('[%s] %s', u.severity, u.title)
    if u.description then
      text = text .. ': ' .. u.description
    end
    s.chat:note(text)
  end,
}

-- agentd/event, by `type`: what ACP cannot carry.
M.event = {
  turn_start = function(s)
    s.running = true
  end,
  turn_end = function(s, e)
    -- A prompt from this editor is answered with the same ending (and an error answer
    -- says more); turns started elsewhere or by a steer into an idle session end here.
    if not s.prompt_pending then
      s:ended(turn_end.from_event(e))
    end
  end,
  queue = function(s, e)
    s.queue = { steering = e.steering, follow_up = e.followUp }
  end,
  retry = function(s, e)
    s.chat:note(string.format('[retry %d] %s', e.attempt, e.reason))
  end,
  fallback = function(s, e)
    s.chat:note(string.format('[fallback] %s -> %s: %s', e.from, e.to, e.reason))
  end,
}

return M
