// The trackers sift syncs with, behind one face for the commands (`sift sync`, `sift doctor`):
// connect to a link's tracker with its credential (GitHub token or Redmine key, from where the
// config and environment say), name the link's remote as the user knows it, and check that the
// remote answers. Each tracker's own code stays in source/sync/<tracker>/.

import type {SyncLink, TrackerKind} from '../../store/sync/types.js';
import {configPath, loadConfig} from '../config/config.js';
import type {WatchClock} from '../codex/watch-loop.js';
import type {TrackerAdapter} from './engine-loop.js';
import {currentRemote, repoParts} from './github/adapter.js';
import {connectGithub} from './github/connect.js';
import {redmineRemote} from './redmine/adapter.js';
import {connectRedmine, type RedmineConnection} from './redmine/connect.js';
import {secretFilePath} from './secret-file.js';

export type TrackerConnection = {
	adapter: TrackerAdapter;
	/** The Redmine connection itself, for the set-up reads of `sift sync add redmine`. */
	redmine?: RedmineConnection;
	/** Where the credential came from (never the credential). */
	credential: string;
	/** The rate limit the tracker reported last, when it reports one. */
	rate(): {remaining: number; resetAt: number} | undefined;
	/** Whether the link's remote answers with this credential: a line saying so, or a thrown one-line error. */
	check(link: SyncLink): Promise<string>;
};

export type ConnectOptions = {env: NodeJS.ProcessEnv; config?: string; clock?: WatchClock; notice?: (message: string) => void; signal?: AbortSignal};

/** The link's remote as the user knows it: OWNER/REPO (after a rename, the new name), or URL#project. */
export const remoteName = (link: SyncLink): string => (link.tracker === 'github' ? currentRemote(link) : link.remote);

/** The file a config setting names for a tracker's secret, as a path. */
export async function secretFile(options: ConnectOptions, setting: 'github_token_file' | 'redmine_key_file'): Promise<string | undefined> {
	const file = options.config ?? configPath(options.env);
	return secretFilePath(file, (await loadConfig(file)).config.sync?.[setting]);
}

/** A connection to `tracker`; for Redmine, to the server of `remote` (URL#project). */
export async function connectTracker(tracker: TrackerKind, remote: string, options: ConnectOptions): Promise<TrackerConnection> {
	if (tracker === 'redmine') {
		const connection = connectRedmine({url: redmineRemote(remote).url, env: options.env, keyFile: await secretFile(options, 'redmine_key_file'), clock: options.clock, notice: options.notice, signal: options.signal});
		return {
			adapter: connection.adapter,
			redmine: connection,
			credential: `Redmine key from ${connection.key.source}${connection.key.file ? ` (${connection.key.file})` : ''}`,
			rate: () => undefined,
			async check(link) {
				const {project} = redmineRemote(link.remote);
				await connection.client.request('GET', `/issues.json?project_id=${encodeURIComponent(project)}&status_id=*&limit=1`);
				return `redmine ${link.remote} answers; pulled ${link.last_pull_at ?? 'never'}`;
			},
		};
	}

	const connection = await connectGithub({env: options.env, tokenFile: await secretFile(options, 'github_token_file'), clock: options.clock, notice: options.notice, signal: options.signal});
	return {
		adapter: connection.adapter,
		credential: `GitHub token from ${connection.token.source}${connection.token.file ? ` (${connection.token.file})` : ''}`,
		rate: () => connection.client.rate,
		async check(link) {
			const remote = currentRemote(link);
			await connection.client.request(remote, 'GET /repos/{owner}/{repo}/issues', {...repoParts(remote), per_page: 1});
			return `github ${remote} answers; pulled ${link.last_pull_at ?? 'never'}`;
		},
	};
}

/** Connections shared by the links of one command: one per tracker and server. */
export function connectionPool(options: ConnectOptions): (link: SyncLink) => Promise<TrackerConnection> {
	const made = new Map<string, Promise<TrackerConnection>>();
	return async link => {
		const key = link.tracker === 'redmine' ? `redmine ${redmineRemote(link.remote).url}` : 'github';
		let connection = made.get(key);
		if (!connection) {
			connection = connectTracker(link.tracker, link.remote, options);
			made.set(key, connection);
		}

		return connection;
	};
}
