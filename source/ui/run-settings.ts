import type {RunOptions} from '../codex/runner.js';
import type {EditMode} from '../../store/writes.js';

export type RunSettings = Pick<RunOptions, 'dbPath' | 'channelId' | 'codex' | 'model' | 'codexConfig' | 'keepApiEnv' | 'allowAgentShell' | 'env' | 'stateDir' | 'timeoutMs' | 'autoAcceptAbove'> & {
	/** `sift serve`'s MCP endpoint: the agent reaches the store through it, with a token for the run alone. */
	endpoint?: string;
	/** Whether a run starting now proposes (the screen's `:propose`, `agent_mode`): asked at each start. */
	agentMode?: () => EditMode;
};

/** A run started from the TUI ends after 10 minutes unless --timeout says otherwise (`sift run` keeps 30). */
export const TUI_RUN_DEADLINE_MS = 600_000;

/** The settings of the screen's runs: its database and channel, and the TUI's own default deadline. */
export function tuiRunSettings(options: Omit<RunSettings, 'dbPath' | 'channelId'>, dbPath: string, channelId: string): RunSettings {
	return {...options, timeoutMs: options.timeoutMs ?? TUI_RUN_DEADLINE_MS, dbPath, channelId};
}
