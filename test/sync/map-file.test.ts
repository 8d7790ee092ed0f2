// The map file of `sift sync add … --map`: one reader for every tracker, each adapter naming what it knows.
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {readGithubMap} from '../../source/sync/github/mapping.js';
import {readRedmineMap} from '../../source/sync/redmine/mapping.js';
import {MapFileError} from '../../source/sync/map-file.js';
import {tempDir} from '../support/temp.js';

function mapFile(text: string): string {
	const file = join(tempDir('sift-map-'), 'map.yaml');
	writeFileSync(file, text);
	return file;
}

describe('sync map files', () => {
	it('GitHub: known names to field keys or null; the link key never local; unknown names refused with the known ones', () => {
		expect(readGithubMap(mapFile('fields:\n  labels: tags\n  body: null\n'))).toEqual({labels: 'tags', body: null});
		expect(() => readGithubMap(mapFile('fields:\n  number: null\n'))).toThrow(/"number" is the key of the link and cannot stay local/);
		expect(() => readGithubMap(mapFile('fields:\n  cf:Severity: sev\n'))).toThrow(/"cf:Severity" is not a GitHub field sift maps; known: .*labels/);
		expect(() => readGithubMap(mapFile('fields:\n  labels: Tags\n'))).toThrow(/"labels" must map to a field key \(lowercase letters, digits, _\) or null/);
	});

	it('Redmine: custom fields as cf:NAME besides its own names; a file that is no map is refused, naming the tracker', () => {
		expect(readRedmineMap(mapFile('fields:\n  done_ratio: progress\n  "cf:Severity": sev\n  description: null\n'))).toEqual({done_ratio: 'progress', 'cf:Severity': 'sev', description: null});
		expect(() => readRedmineMap(mapFile('fields:\n  labels: tags\n'))).toThrow(/"labels" is not a Redmine field sift maps; known: .*, or "cf:NAME" for a custom field/);
		expect(() => readRedmineMap(mapFile('fields: [a, b]\n'))).toThrow(/expected "fields:" mapping Redmine field names \(or "cf:NAME" for a custom field\) to sift field keys/);
		const unreadable = mapFile('fields: {a: [\n');
		expect(() => readRedmineMap(unreadable)).toThrow(MapFileError);
		expect(() => readRedmineMap(unreadable)).toThrow(/cannot read the map/);
	});
});
