// A run's secrets found and replaced.

import {describe, expect, it} from 'vitest';
import {redact, runSecrets} from '../../source/codex/redact.js';

describe('runSecrets and redact', () => {
	it('finds the password of a postgres URL (as written and decoded) and $PGPASSWORD, and replaces them everywhere', () => {
		const secrets = runSecrets('postgres://sift:p%40ss%22word@db:5432/sift', {PGPASSWORD: 'envSECRET'});
		expect(secrets).toEqual(expect.arrayContaining(['p%40ss%22word', 'p@ss"word', 'p@ss\\"word', 'envSECRET']));
		const text = '{"error":"auth failed for p@ss\\"word"} url postgres://sift:p%40ss%22word@db and envSECRET twice envSECRET';
		expect(redact(text, secrets)).toBe('{"error":"auth failed for ***"} url postgres://sift:***@db and *** twice ***');
	});

	it('a file path, a URL without a password and very short secrets give nothing to replace', () => {
		expect(runSecrets('/data/sift.db', {})).toEqual([]);
		expect(runSecrets('postgres://sift@db/sift', {PGPASSWORD: 'ab'})).toEqual([]);
		expect(redact('unchanged', [])).toBe('unchanged');
	});
});
