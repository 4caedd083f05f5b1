import { useSignal } from '@preact/signals';
import type { SessionConfigOption, SessionOverview } from '../../../../protocol/index.js';
import type { AgentdConnection } from '../../../typescript/src/browser.js';
import { projectName } from '../format/project-name.js';
import { stateLabel } from '../format/state-label.js';
import { PermissionPrompt } from '../permissions/permission-prompt.js';
import type { PermissionQuestion } from '../permissions/permission-store.js';
import { announce } from '../shell/announcer.js';
import { ConfigOptionPicker } from './config-option-picker.js';
import { ExportButtons } from './export-buttons.js';
import { ModePicker } from './mode-picker.js';
import { PlanView } from './plan-view.js';
import { PromptBox } from './prompt-box.js';
import { sessionActions, type SessionActions } from './session-actions.js';
import type { SessionFollower } from './session-follower.js';
import { TranscriptView } from './transcript-view.js';

export interface SessionViewProps {
  overview: SessionOverview;
  follower: SessionFollower;
  client: AgentdConnection;
  questions: readonly PermissionQuestion[];
}

/** One session: its history and live turn, its open permission questions, the prompt, the pickers and export. */
export function SessionView({ overview, follower, client, questions }: SessionViewProps) {
  const problem = useSignal<string | null>(null);
  const actions = followedActions(sessionActions(client, overview.sessionId), follower);
  const transcript = follower.transcript.value;
  const modes = follower.modes.value;
  const options: readonly SessionConfigOption[] = transcript.configOptions ?? follower.configOptions.value;
  const selects = options.filter((option): option is Extract<SessionConfigOption, { type: 'select' }> => option.type === 'select');
  const fail = (message: string): void => {
    problem.value = message;
    announce(message);
  };
  const running = follower.running.value;
  const queued = follower.queued.value;
  return (
    <section class="session" aria-labelledby="session-heading">
      <p>
        <a href="#/sessions">← All sessions</a>
      </p>
      <h1 id="session-heading">{transcript.title ?? overview.title ?? 'Untitled session'}</h1>
      <p class="session-facts">
        <span title={overview.cwd}>{projectName(overview.cwd)}</span> · <span>{running ? 'running' : stateLabel(overview.state === 'running' ? 'idle' : overview.state)}</span>
        {queued.steering + queued.followUp > 0 ? <span> · {`${queued.steering} steering, ${queued.followUp} follow-up queued`}</span> : null}
      </p>
      <div class="toolbar">
        {/* A mode config option (ACP's newer form) is the mode picker; the older mode state only stands in when there is none. */}
        {modes && !selects.some((option) => option.category === 'mode') ? <ModePicker modes={modes} currentModeId={transcript.currentModeId ?? modes.currentModeId} onChange={(id) => void actions.setMode(id).catch((e: unknown) => fail(`mode change failed: ${String(e)}`))} /> : null}
        {selects.map((option) => (
          <ConfigOptionPicker key={option.id} option={option} onChange={(value) => void actions.setConfigOption(option.id, value).catch((e: unknown) => fail(`${option.name} change failed: ${String(e)}`))} />
        ))}
        <ExportButtons actions={actions} onError={fail} />
      </div>
      {follower.problem.value ? <p role="alert">{follower.problem.value}</p> : null}
      {problem.value ? <p role="alert">{problem.value}</p> : null}
      {follower.loading.value ? <p>Loading the session…</p> : <TranscriptView items={transcript.items} />}
      {transcript.plan ? <PlanView entries={transcript.plan} /> : null}
      {questions.map((question) => (
        <PermissionPrompt key={question.request.toolCall.toolCallId} question={question} />
      ))}
      <PromptBox running={running} actions={actions} onError={fail} />
    </section>
  );
}

/**
 * The actions, with what the page itself changes shown as it happens: the daemon tells every
 * follower but the sender of a message or a setting (the sender has the answer).
 */
function followedActions(actions: SessionActions, follower: SessionFollower): SessionActions {
  const said =
    (send: (text: string) => Promise<unknown>) =>
    (text: string): Promise<unknown> => {
      follower.said(text);
      return send(text);
    };
  return {
    ...actions,
    prompt: said(actions.prompt),
    steer: said(actions.steer),
    followUp: said(actions.followUp),
    setMode: async (modeId) => {
      const result = await actions.setMode(modeId);
      follower.receive({ sessionUpdate: 'current_mode_update', currentModeId: modeId });
      return result;
    },
    setConfigOption: async (configId, value) => {
      const result = await actions.setConfigOption(configId, value);
      follower.receive({ sessionUpdate: 'config_option_update', configOptions: result.configOptions });
      return result;
    },
  };
}
