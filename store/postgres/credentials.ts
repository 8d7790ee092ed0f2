// Where a PostgreSQL password comes from, as libpq looks for it: the URL, then PGPASSWORD, then the
// password file (PGPASSFILE, else ~/.pgpass). Asked only when the server wants a password; a file
// that others can read is ignored, as libpq does, and the reason is kept for the message.

import {readFileSync, statSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';

export type Login = {host: string; port: number; database: string; user: string};

export type PasswordLookup = {password: string} | {password: undefined; /** Why the password file gave none, when it exists. */ note?: string};

/** One line of a password file, split on unescaped colons (`\:` and `\\` are literal). */
function fieldsOf(line: string): string[] {
	const fields: string[] = [];
	let current = '';
	for (let index = 0; index < line.length; index++) {
		const char = line[index]!;
		if (char === '\\' && index + 1 < line.length) {
			current += line[++index];
		} else if (char === ':') {
			fields.push(current);
			current = '';
		} else {
			current += char;
		}
	}

	fields.push(current);
	return fields;
}

/** The password of the first line that matches `login` (`*` matches anything), or undefined. */
export function passwordFromPgpass(text: string, login: Login): string | undefined {
	const wanted = [login.host, String(login.port), login.database, login.user];
	for (const raw of text.split(/\r?\n/)) {
		if (raw.trim() === '' || raw.startsWith('#')) continue;
		const fields = fieldsOf(raw);
		if (fields.length < 5) continue;
		const matches = wanted.every((value, index) => fields[index] === '*' || fields[index] === value
			// libpq: "localhost" in the file also matches a connection over the default socket.
			|| (index === 0 && fields[index] === 'localhost' && (value === '127.0.0.1' || value === '::1')));
		if (matches) return fields.slice(4).join(':');
	}

	return undefined;
}

/** PGPASSFILE, else ~/.pgpass. */
export const passfilePath = (env: NodeJS.ProcessEnv) => env.PGPASSFILE || join(env.HOME || homedir(), '.pgpass');

/** The password for `login` from the environment or the password file; the URL's own is checked by the caller. */
export function lookUpPassword(login: Login, env: NodeJS.ProcessEnv = process.env): PasswordLookup {
	if (env.PGPASSWORD) return {password: env.PGPASSWORD};
	const file = passfilePath(env);
	let mode: number;
	try {
		mode = statSync(file).mode;
	} catch {
		return {password: undefined};
	}

	if ((mode & 0o077) !== 0) {
		return {password: undefined, note: `${file} is ignored because others can read it: chmod 600 it`};
	}

	try {
		const password = passwordFromPgpass(readFileSync(file, 'utf8'), login);
		return password === undefined ? {password: undefined, note: `${file} has no line for ${login.host}:${login.port}:${login.database}:${login.user}`} : {password};
	} catch {
		return {password: undefined, note: `${file} cannot be read`};
	}
}
