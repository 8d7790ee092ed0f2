// The registry (source/ui/registry.ts) is the one list of the TUI's features: every feature folder
// is in it and has no more than its three files, every binding is reachable, helped and hinted from
// it, every list key is claimed once, every effect kind has its handler, and every overlay that draws
// in the pane is laid out as one (docs/architecture.md#adding-an-overlay).

import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {LIST_KEYS} from '../../source/config/key-table.js';
import {screenLayout} from '../../source/ui/layout.js';
import {BINDINGS, EFFECTS, FEATURES, HELP_LINES, hintsFor, SCOPE_TITLES} from '../../source/ui/registry.js';
import type {Overlay} from '../../source/ui/state.js';
import {repoRoot} from '../support/pty.js';

const FEATURES_DIR = path.join(repoRoot(), 'source', 'ui', 'features');
const REGISTRY = readFileSync(path.join(repoRoot(), 'source', 'ui', 'registry.ts'), 'utf8');

describe('the registry', () => {
	it('lists every feature folder, each of at most its slice, its effects and its view', () => {
		const folders = readdirSync(FEATURES_DIR, {withFileTypes: true}).filter(entry => entry.isDirectory()).map(entry => entry.name);
		expect(folders.length).toBeGreaterThanOrEqual(Object.keys(FEATURES).length - 1);
		for (const folder of folders) {
			expect(REGISTRY, folder).toContain(`from './features/${folder}/slice.js'`);
			const files = readdirSync(path.join(FEATURES_DIR, folder));
			expect(files.every(file => ['slice.ts', 'effects.ts', 'view.tsx'].includes(file)), `${folder}: ${files.join(', ')}`).toBe(true);
		}
	});

	it('gives every binding a help line under its scope\'s title, and every hint to its scope\'s footer', () => {
		for (const binding of BINDINGS) {
			expect(SCOPE_TITLES[binding.scope], binding.scope).toBeTruthy();
			const title = HELP_LINES.findIndex(line => line.key === `${binding.scope}-title`);
			const line = HELP_LINES.findIndex(each => each.key === `${binding.scope}-${binding.action}`);
			expect(line, `${binding.scope}:${binding.action}`).toBeGreaterThan(title);
			expect(HELP_LINES[line]!.text).toContain(binding.description);
			if (binding.hint) expect(hintsFor(binding.scope)).toContainEqual({label: binding.label, hint: binding.hint});
		}
	});

	it('has each list key claimed by exactly one feature, and no key bound twice in a scope', () => {
		for (const action of Object.keys(LIST_KEYS)) {
			expect(BINDINGS.filter(binding => binding.scope === 'list' && binding.action === action), action).toHaveLength(1);
		}

		// Help and the footer show the list's keys in the order of its key table, a feature's own list keys after them.
		const listActions = BINDINGS.filter(binding => binding.scope === 'list').map(binding => binding.action);
		expect(listActions.slice(0, Object.keys(LIST_KEYS).length)).toEqual(Object.keys(LIST_KEYS));
		// A feature's own list key is not one of the table's, and no lowercase letter (field hotkeys take those by default, config/hotkeys.ts).
		const tableKeys = new Set(Object.values(LIST_KEYS).flatMap(key => key.keys));
		for (const binding of BINDINGS.filter(each => each.scope === 'list' && !(each.action in LIST_KEYS))) {
			for (const key of binding.keys) expect(tableKeys.has(key) || /^[a-z]$/.test(key), key).toBe(false);
		}

		const seen = new Set<string>();
		for (const binding of BINDINGS) {
			for (const key of binding.keys) {
				expect(seen.has(`${binding.scope}:${key}`), `${binding.scope}:${key}`).toBe(false);
				seen.add(`${binding.scope}:${key}`);
			}
		}
	});

	it('makes the effect table of the features\' tables, each kind handled by one feature', () => {
		const owners = new Map<string, string>();
		for (const [kind, feature] of Object.entries(FEATURES)) {
			for (const effect of Object.keys(feature.effects)) {
				expect(owners.get(effect), `${effect}: ${owners.get(effect)} and ${kind}`).toBeUndefined();
				owners.set(effect, kind);
			}
		}

		expect(Object.keys(EFFECTS).sort()).toEqual([...owners.keys()].sort());
	});

	it('lays out every overlay that draws in the pane with a pane (the board opens the run pane itself)', () => {
		const size = {columns: 200, rows: 60};
		for (const [kind, feature] of Object.entries(FEATURES)) {
			const view = 'view' in feature ? feature.view : undefined;
			if (!view) continue;
			const layout = screenLayout(size, {kind} as Overlay, 'none');
			if (view.place === 'pane' && kind !== 'board') expect(layout.paneHeight, kind).toBeGreaterThan(0);
		}
	});
});
