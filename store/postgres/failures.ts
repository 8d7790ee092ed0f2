// What a failed PostgreSQL call means to sift's callers, as a store refusal with one line: a lost or
// unreachable server is `unavailable` (the next call reconnects), a statement past the timeout is
// `timeout`, a role without the right is `read_only` (a write) or `permission_denied` (a read), a
// character PostgreSQL cannot store is `invalid_argument`. Anything else stays as it is.

import {invalidArgument, StoreError} from '../errors.js';
import {isConnectionLoss, reasonOf, type Target} from './connect.js';

const GRANTS_HINT = 'see "Roles and grants" in docs/team-mode.md';

export function storeFailure(target: Target, error: unknown, write: boolean): unknown {
	if (error instanceof StoreError) return error;
	const {code, message = ''} = (error ?? {}) as {code?: string; message?: string};
	if (code === '22P05' || code === '22021') {
		return invalidArgument('values contain a character PostgreSQL cannot store (\\u0000)');
	}

	if (code === '57014' && /statement timeout/i.test(message)) {
		return new StoreError({error: 'timeout', message: `a statement on the PostgreSQL store at ${target.where} ran past the statement timeout (${target.statementTimeoutMs / 1000} s) and was cancelled${write ? ', nothing was written' : ''}; narrow the request, or raise --statement-timeout`});
	}

	if (code === '42501') {
		return write ? readOnlyRole(target, message) : new StoreError({error: 'permission_denied', message: `the role ${JSON.stringify(target.login.user)} may not read the PostgreSQL store at ${target.where} (${message}); ${GRANTS_HINT}`});
	}

	if (isConnectionLoss(error)) {
		return new StoreError({error: 'unavailable', message: `the PostgreSQL store at ${target.where} cannot be reached (${reasonOf(error)}); ${write ? 'the write may not have been made; ' : ''}try again`});
	}

	return error;
}

export const readOnlyRole = (target: Target, why?: string) => new StoreError({
	error: 'read_only',
	message: `the role ${JSON.stringify(target.login.user)} may only read the PostgreSQL store at ${target.where}${why ? ` (${why})` : ''}: writing needs INSERT, UPDATE and DELETE on sift's tables and USAGE on its sequences; ${GRANTS_HINT}`,
});

/** `work` with its failure translated. */
export async function guard<T>(target: Target, write: boolean, work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} catch (error) {
		throw storeFailure(target, error, write);
	}
}
