// Short probes of the binary (help, version, login) with a deadline.

import {execa} from 'execa';

/** Probes of the binary (help, version, login status) get five minutes, never forever. */
export const PROBE_DEADLINE_MS = 300_000;

export type QuickResult = {
	/** Undefined when the process could not start or was killed. */
	exitCode: number | undefined;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	/** Why it could not run at all (spawn error), if so. */
	startError?: string;
};

/** Runs a short codex subcommand to completion and captures its output; never throws. */
export async function runQuick(
	binary: string,
	args: string[],
	options: {env?: NodeJS.ProcessEnv; timeoutMs?: number; signal?: AbortSignal} = {},
): Promise<QuickResult> {
	const result = await execa(binary, args, {
		stdin: 'ignore',
		reject: false,
		env: options.env ?? process.env,
		extendEnv: false,
		timeout: options.timeoutMs ?? PROBE_DEADLINE_MS,
		...(options.signal ? {cancelSignal: options.signal} : {}),
	});
	const spawnFailed = result.failed && result.exitCode === undefined && !result.timedOut && !result.isTerminated && !result.isCanceled;
	return {
		exitCode: result.exitCode,
		stdout: String(result.stdout ?? ''),
		stderr: String(result.stderr ?? ''),
		timedOut: result.timedOut,
		...(spawnFailed ? {startError: result.shortMessage} : {}),
	};
}
