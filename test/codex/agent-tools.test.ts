// Which built-in tools a run's agent gets: the choice from `codex features list` text and config
// probes (pure), and the probe of the real codex 0.171 binary.
import {execFileSync} from 'node:child_process';
import {symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {
	featuresToSwitchOff, parseFeatureList, planAgentTools, shellRefusal, type FeatureRow, type ToolProbeFacts,
} from '../../source/codex/agent-tools.js';
import {packageRoot} from '../../source/codex/paths.js';
import {probeCodex} from '../../source/codex/probe.js';
import {FAKE_CODEX, tempDir} from './support.js';

const CODEX = path.join(packageRoot(), 'node_modules', '.bin', 'codex');

const row = (name: string, stage: string, enabled: boolean): FeatureRow => ({name, stage, enabled});
const LISTED = [
	row('shell_tool', 'stable', true), row('unified_exec', 'stable', true), row('js_repl', 'removed', false),
	row('view_image', 'stable', true), row('multi_agent', 'deprecated', true), row('goals', 'stable', true),
	row('web_search_request', 'deprecated', false), row('sleep_tool', 'stable', true),
];
/** What `features list` with the switches shows: 0.171 keeps unified_exec true whatever it is told. */
const VERIFIED = LISTED.map(feature => (feature.name === 'unified_exec' || feature.stage === 'removed' ? feature : {...feature, enabled: false}));
const FACTS: ToolProbeFacts = {version: 'codex-cli 0.171.0', features: LISTED, configKeys: ['web_search', 'tools.experimental_request_user_input'], verified: VERIFIED};
const state = (facts: ToolProbeFacts, name: string) => planAgentTools(facts).families.find(family => family.name === name)?.state;

describe('parseFeatureList', () => {
	it('reads name, stage and state from the rows, stages of two words included', () => {
		expect(parseFeatureList('agent_message_board                      under development  false\nshell_tool      stable   true\nWARNING: not a row\n')).toEqual([
			row('agent_message_board', 'under development', false), row('shell_tool', 'stable', true),
		]);
	});

	it('reads the real codex 0.171 list, which has the shell switch', () => {
		const text = execFileSync(CODEX, ['features', 'list'], {encoding: 'utf8', env: {...process.env, CODEX_HOME: tempDir()}, stdio: ['ignore', 'pipe', 'ignore']});
		const rows = parseFeatureList(text);
		expect(rows.length).toBeGreaterThan(100);
		expect(rows).toContainEqual(row('shell_tool', 'stable', true));
	});
});

describe('planAgentTools', () => {
	it('turns off what the binary lists; removed features are left out, deprecated ones too where a config key governs', () => {
		expect(featuresToSwitchOff(LISTED, FACTS.configKeys)).toEqual(['shell_tool', 'unified_exec', 'view_image', 'multi_agent', 'goals', 'sleep_tool']);
		// Without the web_search key, its old feature is the only switch there is.
		expect(featuresToSwitchOff(LISTED, [])).toContain('web_search_request');
		const plan = planAgentTools(FACTS);
		expect(plan.config).toEqual([
			'features.shell_tool=false', 'features.unified_exec=false', 'features.view_image=false', 'features.multi_agent=false',
			'features.goals=false', 'features.sleep_tool=false', 'web_search="disabled"', 'tools.experimental_request_user_input={enabled=false}',
		]);
		expect(plan.shellOff).toBe(true);
		expect(state(FACTS, 'shell')).toBe('off');
		expect(state(FACTS, 'js_repl')).toBe('absent');
		expect(state(FACTS, 'web_search')).toBe('off');
		// Not in this list at all: no switch, so it cannot be said to be off.
		expect(state(FACTS, 'image_generation')).toBe('on');
	});

	it('a shell switch that the verifying list does not show off leaves the shell on', () => {
		const stuck = {...FACTS, verified: VERIFIED.map(feature => (feature.name === 'shell_tool' ? {...feature, enabled: true} : feature))};
		expect(planAgentTools(stuck).shellOff).toBe(false);
		expect(planAgentTools({...FACTS, verified: null})).toMatchObject({shellOff: false, config: []});
	});

	it('a binary without the shell switch, or without `features`, keeps its shell: the refusal names the version', () => {
		const noSwitch = {...FACTS, features: LISTED.filter(feature => feature.name !== 'shell_tool'), verified: VERIFIED.filter(feature => feature.name !== 'shell_tool')};
		expect(planAgentTools(noSwitch).shellOff).toBe(false);
		const old = planAgentTools({version: 'codex-cli 0.40.0', features: null, configKeys: [], verified: null});
		expect(old.shellOff).toBe(false);
		expect(old.families.every(family => family.state === 'on')).toBe(true);
		expect(shellRefusal(old)).toMatch(/^codex-cli 0\.40\.0 offers the agent a shell that sift cannot turn off: shell \(exec_command, write_stdin, shell\), js_repl .*--allow-agent-shell/);
		// A js_repl still offered (not removed, not switched off) is a shell too.
		const repl = [...LISTED.filter(feature => feature.name !== 'js_repl'), row('js_repl', 'experimental', true)];
		expect(planAgentTools({...FACTS, features: repl, verified: VERIFIED.filter(feature => feature.name !== 'js_repl').concat(row('js_repl', 'experimental', true))}).shellOff).toBe(false);
	});

	it('a config key the binary does not parse is not passed (strict config would refuse the run)', () => {
		const plan = planAgentTools({...FACTS, configKeys: ['web_search']});
		expect(plan.config).not.toContain('tools.experimental_request_user_input={enabled=false}');
		expect(state({...FACTS, configKeys: ['web_search']}, 'request_user_input')).toBe('on');
	});
});

describe('probeCodex', () => {
	it('on the real codex 0.171: the shell and every switchable tool off, --ephemeral and --strict-config found', async () => {
		const probe = await probeCodex(CODEX, {stateDir: tempDir(), env: {...process.env, CODEX_HOME: tempDir()}});
		expect(probe.flags).toEqual(['--ignore-rules', '--ephemeral', '--strict-config']);
		expect(probe.tools.version).toMatch(/^codex-cli 0\.171\./);
		expect(probe.tools.shellOff).toBe(true);
		expect(probe.tools.config).toEqual(expect.arrayContaining(['features.shell_tool=false', 'features.view_image=false', 'features.multi_agent=false', 'features.goals=false', 'web_search="disabled"', 'tools.experimental_request_user_input={enabled=false}']));
		expect(probe.tools.families.filter(family => family.state === 'on')).toEqual([]);
	});

	it('a broken config.toml in the user\'s CODEX_HOME does not change the answer (a run ignores it too)', async () => {
		const home = tempDir();
		writeFileSync(path.join(home, 'config.toml'), 'web_search = 5\n');
		// Another path to the same binary: the probe's memory of CODEX does not answer for it.
		const codex = path.join(tempDir(), 'codex');
		symlinkSync(CODEX, codex);
		const probe = await probeCodex(codex, {stateDir: tempDir(), env: {...process.env, CODEX_HOME: home}});
		expect(probe.tools.shellOff).toBe(true);
	});

	it('on a codex without `features` (the fake, playing an old binary): nothing can be turned off', async () => {
		const probe = await probeCodex(FAKE_CODEX, {stateDir: tempDir(), env: {...process.env, FAKE_CODEX_FEATURES: 'old'}});
		expect(probe.tools).toMatchObject({version: 'codex-cli 0.171.0-fake', shellOff: false, config: []});
	});
});
