/**
 * Which of Codex's built-in tools a run's agent gets (docs/agent-tools.md). The agent is meant to
 * have sift's MCP tools and nothing that reaches the machine or the network, and each Codex binary
 * names its switches differently, so they are chosen from what the binary in use says about
 * itself (`codex features list`, and whether it parses a config key), never from its version.
 *
 * This module is pure: it reads probe answers and says which `-c` switches to pass and what they
 * turn off. probe.ts runs the binary and caches the answers.
 */

/** A config key that switches a tool off: `off` is the value to pass, `wrongType` one it must refuse. */
export type ConfigSwitch = {key: string; off: string; wrongType: string};

/** A group of built-in tools that sift turns off together. */
export type ToolFamily = {
	name: string;
	/** The tools the model would be offered, as Codex names them. */
	tools: string;
	/** Feature flags that offer the tools: each one this binary lists is set to false. */
	features: readonly string[];
	/** A config key that turns the tools off; when present it decides, else the first feature does. */
	config?: ConfigSwitch;
	/**
	 * The features that must be listed and shown off for the family to count as off; the others
	 * are switched too but do not decide. Without it, every listed feature decides.
	 */
	decidedBy?: readonly string[];
	/** A family with no switch in this binary and none of its features listed has no such tools. */
	absentWhenUnlisted?: true;
	/** A shell: a run refuses to start while this family cannot be turned off (unless --allow-agent-shell). */
	shell?: true;
};

export const TOOL_FAMILIES: readonly ToolFamily[] = [
	// 0.171 keeps unified_exec on whatever it is told (`features list` still says true), but without
	// shell_tool it offers no exec_command, write_stdin or shell.
	{name: 'shell', tools: 'exec_command, write_stdin, shell', features: ['shell_tool', 'unified_exec'], decidedBy: ['shell_tool'], shell: true},
	{name: 'js_repl', tools: 'js_repl, a Node.js REPL', features: ['js_repl', 'js_repl_tools_only'], absentWhenUnlisted: true, shell: true},
	{
		name: 'web_search', tools: 'web_search', features: ['web_search_request', 'web_search_cached', 'standalone_web_search'],
		config: {key: 'web_search', off: '"disabled"', wrongType: 'false'},
	},
	{name: 'view_image', tools: 'view_image', features: ['view_image']},
	{name: 'multi_agent', tools: 'spawn_agent, send_input, wait_agent, resume_agent, close_agent', features: ['multi_agent', 'multi_agent_v2']},
	{name: 'goals', tools: 'get_goal, create_goal, update_goal', features: ['goals']},
	{
		name: 'request_user_input', tools: 'request_user_input', features: ['default_mode_request_user_input', 'request_permissions_tool'],
		config: {key: 'tools.experimental_request_user_input', off: '{enabled=false}', wrongType: 'false'},
	},
	{name: 'image_generation', tools: 'image generation', features: ['image_generation']},
	{name: 'browser', tools: 'browser and computer use', features: ['browser_use', 'browser_use_external', 'computer_use', 'in_app_browser']},
	{name: 'apps', tools: 'apps, plugins, tool suggestions and installs', features: ['apps', 'plugins', 'tool_suggest', 'skill_mcp_dependency_install']},
	{name: 'memories', tools: 'memories', features: ['memories']},
	{name: 'sleep', tools: 'sleep', features: ['sleep_tool']},
	{name: 'send_message_to_user_async', tools: 'send_message_to_user_async', features: ['send_message_to_user_async']},
];

/** One row of `codex features list`: `name  stage  true|false`. */
export type FeatureRow = {name: string; stage: string; enabled: boolean};

/** Pure: the rows of `codex features list` (lines that are not rows are skipped). */
export function parseFeatureList(text: string): FeatureRow[] {
	const rows: FeatureRow[] = [];
	for (const line of text.split('\n')) {
		const match = /^([a-z0-9_.]+)\s+(\S.*?)\s+(true|false)\s*$/.exec(line.trim());
		if (match) rows.push({name: match[1]!, stage: match[2]!, enabled: match[3] === 'true'});
	}
	return rows;
}

/** What the probe learned from the binary. */
export type ToolProbeFacts = {
	/** `codex --version`'s first line, e.g. `codex-cli 0.171.0`; null when it would not say. */
	version: string | null;
	/** `codex features list` as it is; null when the binary has no such command (or it failed). */
	features: FeatureRow[] | null;
	/** The config switches this binary parses (refuses a wrong type, takes the off value). */
	configKeys: readonly string[];
	/** `codex features list` again, with every chosen switch: what they really turned off. null when that failed. */
	verified: FeatureRow[] | null;
};

export type FamilyState = {name: string; tools: string; state: 'off' | 'absent' | 'on'; shell: boolean};

/** The switches for one binary and what they leave the agent. */
export type AgentToolPlan = {
	version: string | null;
	/** `KEY=VALUE` pairs, each passed as `-c KEY=VALUE`. */
	config: string[];
	families: FamilyState[];
	/** True when no shell family is left on. */
	shellOff: boolean;
};

/**
 * Pure: the features to set false, from `codex features list`. A removed feature offers nothing;
 * a deprecated one is left alone where the family's config key governs the tools (Codex warns
 * about every deprecated feature it is given).
 */
export function featuresToSwitchOff(features: readonly FeatureRow[] | null, configKeys: readonly string[] = []): string[] {
	if (!features) return [];
	const listed = new Map(features.map(row => [row.name, row]));
	return TOOL_FAMILIES.flatMap(family => family.features.filter(name => {
		const row = listed.get(name);
		if (!row || row.stage === 'removed') return false;
		return !(row.stage === 'deprecated' && family.config && configKeys.includes(family.config.key));
	}));
}

/** The `-c` pairs the probe verifies: every feature switch, then every config switch the binary parses. */
export function switchesToTry(features: readonly FeatureRow[] | null, configKeys: readonly string[]): string[] {
	const configSwitches = TOOL_FAMILIES.flatMap(family => (family.config && configKeys.includes(family.config.key) ? [`${family.config.key}=${family.config.off}`] : []));
	return [...featuresToSwitchOff(features, configKeys).map(name => `features.${name}=false`), ...configSwitches];
}

/** Pure: the plan from the probe's facts. A family counts as off only when the verifying run showed it off. */
export function planAgentTools(facts: ToolProbeFacts): AgentToolPlan {
	const verified = new Map((facts.verified ?? []).map(row => [row.name, row]));
	const listed = new Map((facts.features ?? []).map(row => [row.name, row]));
	// A feature is off when the binary lists it as removed, or the verifying run shows it false.
	const isOff = (name: string) => listed.get(name)?.stage === 'removed' || verified.get(name)?.enabled === false;
	const familyState = (family: ToolFamily): FamilyState['state'] => {
		// A config key decides alone: the older feature flags next to it no longer govern the tool.
		if (family.config) return facts.verified !== null && facts.configKeys.includes(family.config.key) ? 'off' : 'on';
		if (family.decidedBy) return family.decidedBy.every(name => isOff(name)) ? 'off' : 'on';
		const known = family.features.filter(name => listed.has(name));
		if (known.length === 0) return family.absentWhenUnlisted && facts.features !== null ? 'absent' : 'on';
		const live = known.filter(name => listed.get(name)!.stage !== 'removed');
		if (live.length === 0) return 'absent';
		return live.every(name => isOff(name)) ? 'off' : 'on';
	};
	const families = TOOL_FAMILIES.map((family): FamilyState => ({name: family.name, tools: family.tools, state: familyState(family), shell: family.shell === true}));
	return {
		version: facts.version,
		config: facts.verified === null ? [] : switchesToTry(facts.features, facts.configKeys),
		families,
		shellOff: families.every(family => !family.shell || family.state !== 'on'),
	};
}

/** Tools with no switch that stay, and why they cannot reach outside the run (docs/agent-tools.md). */
export const REMAINING_TOOLS: ReadonlyArray<{tools: string; why: string}> = [
	{tools: 'list_mcp_resources, list_mcp_resource_templates, read_mcp_resource', why: 'they reach only the MCP servers of the run, which is sift\'s alone'},
	{tools: 'apply_patch (code mode)', why: 'the read-only sandbox refuses every write and approvals are never asked for'},
	{tools: 'exec, wait (code mode)', why: 'JavaScript in an isolate with no file system or network; it can call only the tools listed here'},
	{tools: 'collaboration tools (code mode)', why: 'sub-agents run in the same Codex with the same switches and sandbox'},
	{tools: 'clock, send_message_to_user_async (code mode)', why: 'they read the time or talk to the run, nothing else'},
];

/** `shell (exec_command, write_stdin, shell)`; a family named like its one tool is named once. */
export function describeFamily(family: FamilyState): string {
	return family.name === family.tools ? family.name : `${family.name} (${family.tools})`;
}

/** The refusal when a shell stays on: names the Codex version (agent_sandbox_unavailable). */
export function shellRefusal(plan: AgentToolPlan): string {
	const open = plan.families.filter(family => family.shell && family.state === 'on').map(describeFamily);
	return `${plan.version ?? 'this Codex (version unknown)'} offers the agent a shell that sift cannot turn off: ${open.join(', ')}. `
		+ 'Upgrade Codex (`npm install -g @openai/codex`), or pass --allow-agent-shell to run with it anyway.';
}
