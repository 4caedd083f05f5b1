-- How a turn ended, from the prompt's answer (stopReason, or an error) or from a
-- turn_end event (for turns another client started): one record and one line of text.
--
-- An ending is { outcome, stop_reason?, error?, code?, message?, text } where outcome is one of
-- done, cancelled, failed, out_of_turns, budget, max_tokens, refused, busy.
local M = {}

-- PROTOCOL.md StopReason.
local BY_STOP_REASON = {
  end_turn = { outcome = 'done', text = '[done]' },
  cancelled = { outcome = 'cancelled', text = '[cancelled]' },
  max_turn_requests = { outcome = 'out_of_turns', text = '[stopped] out of turns: maxTurns reached' },
  max_tokens = { outcome = 'max_tokens', text = '[stopped] the reply hit the output token limit' },
  refusal = { outcome = 'refused', text = '[refused] the model refused to answer' },
}

-- PROTOCOL.md "Error codes".
local SESSION_BUSY = -32010

local function from_stop_reason(stop_reason)
  local known = BY_STOP_REASON[stop_reason]
  if known then
    return { outcome = known.outcome, stop_reason = stop_reason, text = known.text }
  end
  return { outcome = 'done', stop_reason = stop_reason, text = '[done] ' .. tostring(stop_reason) }
end

--- From a session/prompt result ({ stopReason, _meta? }).
function M.from_result(result)
  result = result or {}
  local meta = type(result._meta) == 'table' and result._meta.agentd or nil
  -- PROTOCOL.md: a spent budget answers end_turn with _meta.agentd.outcome = budget_exceeded.
  if type(meta) == 'table' and meta.outcome == 'budget_exceeded' then
    -- The message (cost so far, what to do) is also the notice shown just before.
    return {
      outcome = 'budget',
      stop_reason = result.stopReason,
      message = meta.message,
      text = '[stopped] budget spent: budgetUsd reached',
    }
  end
  return from_stop_reason(result.stopReason)
end

--- From a session/prompt error answer ({ code, message, data }).
function M.from_error(err)
  local message = type(err) == 'table' and tostring(err.message) or tostring(err)
  local code = type(err) == 'table' and err.code or nil
  if code == SESSION_BUSY then
    return {
      outcome = 'busy',
      code = code,
      error = message,
      text = '[not started] a turn is running: use :AgentdSteer or :AgentdFollowUp, or :AgentdAbort',
    }
  end
  return { outcome = 'failed', code = code, error = message, text = '[failed] ' .. message }
end

--- From an agentd/event turn_end ({ stopReason, error? }).
function M.from_event(event)
  if event.error then
    return { outcome = 'failed', stop_reason = event.stopReason, error = event.error, text = '[failed] ' .. event.error }
  end
  return from_stop_reason(event.stopReason)
end

return M
