// What loading the config costs the TUI's start (docs/architecture.md#start-up): without a file,
// the defaults come without loading yaml or zod; with one, both load and the file is read.
// Run in a child process of the built app, whose module loads a resolve hook writes down.

import {execFileSync} from 'node:child_process';
import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {repoRoot} from '../support/pty.js';
import {tempDir} from '../support/temp.js';

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});

/** The packages the built loadConfig loads for `file`, and the theme it read. */
function packagesLoaded(file: string): {packages: string[]; theme: string} {
	const dir = tempDir('sift-config-load-');
	dirs.push(dir);
	const log = path.join(dir, 'loaded.txt');
	const hook = path.join(dir, 'hook.mjs');
	writeFileSync(hook, `import {appendFileSync} from 'node:fs';\nexport async function resolve(specifier, context, next) {\n\tconst resolved = await next(specifier, context);\n\tappendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');\n\treturn resolved;\n}\n`);
	const register = path.join(dir, 'register.mjs');
	writeFileSync(register, `import {register} from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
	const config = pathToFileURL(path.join(repoRoot(), 'dist', 'source', 'config', 'config.js')).href;
	const theme = execFileSync(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '-e', `const {loadConfig} = await import(${JSON.stringify(config)}); process.stdout.write((await loadConfig(${JSON.stringify(file)})).config.theme);`], {encoding: 'utf8'});
	const packages = readFileSync(log, 'utf8').split('\n').map(url => /\/node_modules\/([^/]+)\//.exec(url)?.[1]).filter((name): name is string => name !== undefined);
	return {packages: [...new Set(packages)].sort(), theme};
}

describe('loading the config file', () => {
	it('without a file: the defaults, and neither yaml nor zod is loaded', () => {
		const dir = tempDir('sift-config-none-');
		dirs.push(dir);
		const {packages, theme} = packagesLoaded(path.join(dir, 'config.yaml'));
		expect(theme).toBe('default');
		expect(packages).not.toContain('yaml');
		expect(packages).not.toContain('zod');
	});

	it('with a file: yaml and zod load, and the file is read', () => {
		const dir = tempDir('sift-config-file-');
		dirs.push(dir);
		const file = path.join(dir, 'config.yaml');
		writeFileSync(file, 'theme: mono\n');
		const {packages, theme} = packagesLoaded(file);
		expect(theme).toBe('mono');
		expect(packages).toEqual(expect.arrayContaining(['yaml', 'zod']));
	});
});
