// The command table: each command's usage, flags and notes, and the `--help` text built from it.

import {CODEX_FLAGS, FLAGS, STORE_FLAGS, WHERE_CONFIRM_LIMIT, type FlagSpec} from './flags.js';

/** One subcommand as the command line knows it: how it is typed, its flags, its help. */
export type CommandSpec = {
	/** A few words for the list of commands. */
	brief: string;
	usage: string;
	summary: string;
	flags: FlagSpec[];
	/** Paragraphs after the flags: value rules, defaults, exit codes. */
	notes?: string[];
};

const VALUES_NOTE = 'Values given as key=value are read as JSON when they parse (5, true, null), else as text.';
const ITEM_NOTE = 'ITEM is an item id (it_0000000042) or the value of a unique field (BUG-0042); a name two items answer to is refused, listing both.';
const EXIT_NOTE = 'Exit codes: 0 ok, 1 refused or failed, 2 usage error.';
const RUN_EXIT_NOTE = 'Exit codes (the run\'s outcome):\n'
	+ '  0    ok\n'
	+ '  1    failed, or codex_missing (no codex binary found)\n'
	+ '  1    agent_sandbox_unavailable (Codex keeps a shell; --allow-agent-shell)\n'
	+ '  2    usage error\n'
	+ '  3    partial (Codex answered but did not finish its turn)\n'
	+ '  4    auth_required (codex is not logged in)\n'
	+ '  5    timed_out\n'
	+ '  130  cancelled (Ctrl+C)\n'
	+ 'A run whose sift died shows the outcome abandoned in `sift runs` only.';

/** Every subcommand, keyed by the name typed after `sift`; `tui` is `sift` with no subcommand. */
export const COMMAND_TABLE: Record<string, CommandSpec> = {
	tui: {
		brief: 'open the TUI',
		usage: 'sift [--db FILE] [--channel ID] [--config FILE] [--server URL] [--batch N] [--parallel P]',
		summary: 'Open the TUI on a database.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.config, FLAGS.server, FLAGS.batch, FLAGS.parallel, ...CODEX_FLAGS],
	},
	demo: {
		brief: 'load the demo channel, then open the TUI',
		usage: 'sift demo [--items N] [--seed S] [--reset] [--no-open]',
		summary: 'Load the demo bug-tracker channel into the database, then open the TUI.',
		flags: [...STORE_FLAGS, FLAGS.demoItems, FLAGS.seed, FLAGS.reset, FLAGS.noOpen, FLAGS.json, FLAGS.config, FLAGS.server, ...CODEX_FLAGS],
		notes: ['The channel is generated when the database does not have it yet, or again with --reset. It goes into the default database, so every other command finds it without --db. On PostgreSQL the channel is only ever added: --reset is refused there (drop the schema or database yourself).'],
	},
	import: {
		brief: 'import records: sift JSON, GitHub issues, CSV or JSON Lines',
		usage: 'sift import FILE [--format sift|github|csv|jsonl] [--channel ID] [--map MAP.yaml] [--into CHANNEL --key FIELD] [--grow-options] [--dry-run] [--schema-out FILE]',
		summary: 'Import records into a new channel, or append and update an existing one (--into --key), all or nothing.',
		flags: [...STORE_FLAGS, FLAGS.format, FLAGS.importChannel, FLAGS.map, FLAGS.into, FLAGS.key, FLAGS.growOptions, FLAGS.dryRun, FLAGS.schemaOut, FLAGS.json],
		notes: [
			'A sift file holds {"channel": {"id", "name", "fields": [...]}, "items": [{"values": {...}}]}. A GitHub file holds issues from the REST API (an array, JSON Lines, or the arrays of gh api --paginate) or from gh issue list --json. A CSV or JSON Lines file gets a schema inferred from its values unless --map gives one.',
			'With --into, rows are matched on --key: new rows are created, changed rows edited (actor import), unchanged rows left alone. Any refused row writes nothing. Docs: docs/records.md.',
		],
	},
	channels: {
		brief: 'list the channels',
		usage: 'sift channels',
		summary: 'List the channels with their item counts.',
		flags: [...STORE_FLAGS, FLAGS.json],
	},
	list: {
		brief: 'list items, a page at a time or --all',
		usage: 'sift list [--where QUERY] [--sort FIELD|-FIELD] [--before ID | --cursor C] [--limit N] [--filter KEY=VALUE] [--all]',
		summary: 'List items, newest first, one page at a time (or all of them with --all).',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json, FLAGS.where, FLAGS.sort, FLAGS.before, FLAGS.cursor, FLAGS.listLimit, FLAGS.filter, FLAGS.all],
		notes: ['The table fits the terminal\'s width ($COLUMNS when not a terminal, else 80).'],
	},
	export: {
		brief: 'write every item in full: sift, JSON Lines or CSV',
		usage: 'sift export [--channel ID] [--where QUERY] [--format sift|jsonl|csv] [--csv-raw] [--out FILE]',
		summary: 'Write a channel\'s items with every value in full, and id, version, created_at and updated_at, oldest first.',
		flags: [FLAGS.db, FLAGS.channel, FLAGS.exportWhere, FLAGS.exportFormat, FLAGS.csvRaw, FLAGS.exportOut],
		notes: [
			'sift: {"channel": …, "items": [{"id", "version", "created_at", "updated_at", "values"}, …]}, which `sift import` reads back into the same channel (new ids; version and timestamps kept). jsonl: a first line {"sift":"jsonl","channel":…}, then one flat object per item. csv: a typed header row (id,version,created_at,updated_at,KEY:TYPE,…), then one row per item; lists and objects as JSON, CRLF line ends. `sift import` reads all three back into the same types without a map.',
			'CSV formula injection: a cell starting with = + - @ tab or CR (or \') gets a leading \' so a spreadsheet shows it as text, and the header\'s first cell is id:safe, so `sift import` takes the \' off again. --csv-raw writes the exact bytes (header id).',
			'Items are read a page at a time by cursor: memory stays flat at any size, and an item edited meanwhile appears once. With --out the file appears whole when done, or not at all.',
		],
	},
	channel: {
		brief: 'show or change a channel\'s schema',
		usage: 'sift channel show | add-field KEY TYPE [--label L] [--option VALUE[:LABEL]]... [--config JSON] [--required] | add-option FIELD VALUE [--label L] [--color C] | rename-label FIELD VALUE LABEL | retire-option FIELD VALUE [--migrate-to VALUE] | set FIELD [--required|--optional] [--config JSON]',
		summary: 'Show a channel\'s fields, or change them: a person\'s power (the agent\'s tools cannot change a schema).',
		flags: [FLAGS.db, FLAGS.channel, FLAGS.json, FLAGS.label, FLAGS.color, FLAGS.option, FLAGS.fieldConfig, FLAGS.required, FLAGS.optional, FLAGS.migrateTo],
		notes: [
			'A change that would leave an item invalid is refused, naming how many and the first few (3 items hold status "wontfix": BUG-0001, BUG-0007, …), and nothing changes. retire-option --migrate-to VALUE first moves those items to VALUE, each a versioned edit.',
			'add-field KEY select (or multi_select) needs its options: --option high:High --option low:Low, or --config \'{"options": [{"value": "high", "label": "High"}]}\'.',
			'add-field --required is refused while the channel has items (none holds the new field): add it optional, fill it (sift edit --where …), then sift channel set KEY --required.',
			'set --config merges into the field\'s config: given entries replace, a null entry removes one. Each change appends a channel.updated event: open TUIs and agents see the new schema on their next read.',
		],
	},
	show: {
		brief: 'show one item',
		usage: 'sift show ITEM',
		summary: 'Show one item with every field.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json],
		notes: [ITEM_NOTE],
	},
	edit: {
		brief: 'set fields of one or more items',
		usage: 'sift edit ITEM... key=value... [--expect-version N] | sift edit --where QUERY key=value... [--yes]',
		summary: 'Set fields of one or more items; each item is its own validated, versioned write.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json, FLAGS.expectVersion, FLAGS.editWhere, FLAGS.yes],
		notes: [
			ITEM_NOTE,
			VALUES_NOTE,
			'Without --expect-version the edit applies to whatever version is current; scripts that read an item first should pass the version they read.',
			'With several items, a line per item says ok, refused or conflict; the exit code is 1 if any failed.',
			`--where edits the items the query matches, each at the version it had when matched (an item changed in between is a conflict); more than ${WHERE_CONFIRM_LIMIT} need --yes.`,
		],
	},
	add: {
		brief: 'create an item',
		usage: 'sift add key=value...',
		summary: 'Create an item.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json],
		notes: [VALUES_NOTE],
	},
	delete: {
		brief: 'delete an item',
		usage: 'sift delete ITEM [--expect-version N]',
		summary: 'Delete an item.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json, FLAGS.expectVersion],
		notes: [ITEM_NOTE, 'Without --expect-version the item is deleted whatever its current version; scripts that read it first should pass the version they read.'],
	},
	events: {
		brief: 'print the change events',
		usage: 'sift events [--after N] [--limit N]',
		summary: 'Print the channel\'s change events in order.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json, FLAGS.after, FLAGS.eventLimit],
	},
	followups: {
		brief: 'list, dismiss or resolve the open follow-ups',
		usage: 'sift followups [dismiss ID | resolve ID --ours|--theirs|--value VALUE]',
		summary: 'List the open follow-ups (values the store refused, and sync conflicts: a field changed here and on the other side), dismiss one, or resolve a sync conflict.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json, FLAGS.ours, FLAGS.theirs, FLAGS.resolveValue],
	},
	eval: {
		brief: 'measure the agent, or duplicate search, on what the channel already knows',
		usage: 'sift eval --fields KEY,... [--sample N] [--seed S] [--query Q] [--keep] [--batch N] [--parallel P] [--channel ID] [--json] | sift eval --similar --pairs FILE [--key FIELD] [--channel ID] [--json]',
		summary: 'With --fields: copy a sample of items whose fields are known into a scratch store, hide those fields, run the agent in propose mode on the copy, and compare its proposals with the truth: precision, recall and F1 per field, the calibration error of its confidences, and duplicate recall@1, @5 and @10 when duplicate_of is among the fields. Your store is only read. With --similar: measure find_similar_items on the channel\'s known duplicates: each item linked to an older one is asked against the items added before it; prints recall@1, @5 and @10 and the mean reciprocal rank.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.evalFields, FLAGS.evalSample, FLAGS.evalSeed, FLAGS.evalQuery, FLAGS.evalInstruction, FLAGS.keep, FLAGS.batch, FLAGS.parallel, ...CODEX_FLAGS, FLAGS.evalSimilar, FLAGS.pairs, FLAGS.evalKey, FLAGS.json],
		notes: ['The scratch store is a SQLite file in a temporary folder, removed afterwards unless --keep. With --similar, links naming no item of the channel are counted and left out. Docs: docs/eval.md.', EXIT_NOTE],
	},
	sync: {
		brief: 'two-way sync of channels with GitHub or Redmine issues',
		usage: 'sift sync [CHANNEL] | sift sync add github OWNER/REPO [--channel ID] [--map MAP.yaml] | sift sync add redmine URL --project IDENTIFIER [--channel ID] [--map MAP.yaml] | sift sync list | sift sync remove CHANNEL | sift sync pull|push|status [CHANNEL] | sift sync --watch [CHANNEL]',
		summary: 'Link a channel to a GitHub repository or a Redmine project and keep the two in step: pull the issues changed there, push the fields changed in sift, and turn edits made on both sides into conflicts to resolve.',
		flags: [...STORE_FLAGS, FLAGS.syncChannel, FLAGS.syncMap, FLAGS.syncProject, FLAGS.watch, FLAGS.interval, FLAGS.config, FLAGS.json],
		notes: [
			'The token comes from GITHUB_TOKEN, GH_TOKEN, `gh auth token`, or the file named as sync.github_token_file in the config (mode 0600); it is never printed or stored. SIFT_GITHUB_API points sift at another API base URL (GitHub Enterprise). The Redmine API key comes from REDMINE_API_KEY or the file named as sync.redmine_key_file (mode 0600).',
			'Exit codes: 0 in step, 1 failed (the channel is named), 2 usage error, 3 done with conflicts open (`sift followups`, then `sift followups resolve ID --ours|--theirs|--value VALUE`). Docs: docs/sync.md.',
		],
	},
	mcp: {
		brief: 'serve the agent tools over stdio (MCP)',
		usage: 'sift mcp --grant CHANNEL [--actor agent] [--run ID] [--propose [--auto-accept-above N]] [--db FILE | --db-env VAR]',
		summary: 'Serve the agent tools over stdio (MCP). stdout carries JSON-RPC only.',
		flags: [...STORE_FLAGS, FLAGS.dbEnv, FLAGS.json, FLAGS.grant, FLAGS.actor, FLAGS.run, FLAGS.mcpPropose, FLAGS.autoAcceptAbove, FLAGS.ownerPid],
	},
	run: {
		brief: 'headless Codex runs, in parallel batches',
		usage: 'sift run "INSTRUCTION" [--items ITEM,... | --where QUERY] [--batch N] [--parallel P] [--propose] [--model M] [--timeout S] [--server URL]',
		summary: 'Headless Codex runs: progress lines on stderr, a summary per run on stdout. More items than --batch are split into batches, each its own run (own run id, own MCP server), up to --parallel at once.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json, FLAGS.runItems, FLAGS.runWhere, FLAGS.batch, FLAGS.parallel, FLAGS.propose, FLAGS.server, ...CODEX_FLAGS],
		notes: [
			'One run (no items, or at most --batch of them) prints one summary; with --json one object. Several runs print a summary each as it ends; with --json one object a line (JSON Lines), each the shape of the one-run object.',
			RUN_EXIT_NOTE,
			'Several runs exit with the code of the worst outcome, worst first: cancelled, auth_required, agent_sandbox_unavailable, codex_missing, abandoned, failed, timed_out, partial, ok. Ctrl+C cancels every run and starts no more.',
		],
	},
	watch: {
		brief: 'send new items to Codex as they arrive',
		usage: 'sift watch [--where QUERY] [--instruction TEXT] [--batch N] [--parallel P] [--settle 5s] [--propose]',
		summary: 'Follow the channel\'s events and send new or newly matching items to Codex in batches, each its own run, up to --parallel at once, until Ctrl+C.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json, FLAGS.watchWhere, FLAGS.instruction, FLAGS.batch, FLAGS.parallel, FLAGS.settle, FLAGS.propose, FLAGS.server, ...CODEX_FLAGS],
		notes: [
			'A batch goes when it holds --batch items, or when its first item has waited --settle. An item is sent once for a version: a later edit sends it again only if it had stopped matching --where in between. Edits made by agents never send an item.',
			'The first watch of a database, channel and query starts at the channel\'s latest event; after that, where it stopped (the cursor is kept in the state dir), so items created while it was stopped go out when it starts again.',
			'Ctrl+C cancels the running batches (recorded as cancelled; their items are not sent again) and exits 130. Summaries as with `sift run`: one per batch, JSON Lines with --json.',
		],
	},
	runs: {
		brief: 'the run history',
		usage: 'sift runs [RUN_ID] [--limit N] | sift runs diff RUN | sift runs revert RUN [--yes]',
		summary: 'The run history of this database, or one run with its steps; the fields a run changed (diff), and setting them back (revert).',
		flags: [...STORE_FLAGS, FLAGS.json, FLAGS.runsLimit, FLAGS.revertYes],
		notes: [
			'diff lists every field the run changed (its own writes, or in propose mode what a person accepted of it): from, to, and the value now.',
			'revert sets each field back to its value before the run where nothing changed it since, as one edit of yours whose events name the run; a field changed since is a conflict and is left as it is. Without --yes it only shows what it would do. Exit 1 when a revert left conflicts or refusals. See docs/review.md.',
		],
	},
	proposals: {
		brief: 'the review queue: list, accept or decline proposals',
		usage: 'sift proposals [list] [--run RUN] [--where QUERY] | sift proposals stats [--run RUN] | sift proposals accept ID...|--run RUN|--min-confidence N [--force] | sift proposals decline ID...|--run RUN',
		summary: 'Proposals are the valid edits of runs in propose mode (`sift run --propose`), waiting for a person. list shows the open ones, oldest first: each field as it was when proposed → proposed, and the reason.',
		flags: [...STORE_FLAGS, FLAGS.channel, FLAGS.json, FLAGS.proposalsRun, FLAGS.proposalsWhere, FLAGS.minConfidence, FLAGS.force],
		notes: [
			'accept writes every proposal named (or every open one of --run) as one edit of yours, each at the version it was based on; events name the proposal and its run. A proposal whose fields changed since it was made is a conflict: both values are shown and nothing is overwritten, unless --force. decline closes proposals without writing.',
			'stats counts, per field, the proposals of the channel (or of --run) accepted (by auto_accept_above among them), declined and open.',
			'Exit 1 when an accept left conflicts or refusals. See docs/review.md.',
		],
	},
	serve: {
		brief: 'serve the agent tools over HTTP (MCP), with tokens',
		usage: 'sift serve [--listen HOST:PORT] [--allow-host HOST[:PORT]]... [--rate N]',
		summary: 'Serve the agent tools over MCP Streamable HTTP at /mcp; every request needs a bearer token from `sift token create`.',
		flags: [...STORE_FLAGS, FLAGS.listen, FLAGS.allowHost, FLAGS.rate],
		notes: ['SIGTERM stops accepting, lets requests in flight finish (up to 10 s), then exits 0. See docs/team-mode.md.'],
	},
	token: {
		brief: 'create, list or revoke tokens for sift serve',
		usage: 'sift token create --grant CHANNEL[,...] [--scope read|write] [--actor agent|human] [--name N] [--expires 30d] | sift token list | sift token revoke NAME',
		summary: 'Bearer tokens for `sift serve`: a token is printed once; the store keeps only its hash.',
		flags: [...STORE_FLAGS, FLAGS.json, FLAGS.tokenGrant, FLAGS.tokenScope, FLAGS.actor, FLAGS.tokenName, FLAGS.expires],
	},
	migrate: {
		brief: 'create or upgrade the store\'s tables',
		usage: 'sift migrate [--db FILE|URL]',
		summary: 'Create sift\'s tables in the database, or bring them up to this sift\'s schema. The one command besides import and demo that creates tables; on PostgreSQL run it as the owner of the tables, so other roles need no CREATE right.',
		flags: [...STORE_FLAGS, FLAGS.json],
		notes: ['A database that holds tables of another application under sift\'s names (schema_version, items, …) is refused (not_a_store) and left as it is.'],
	},
	doctor: {
		brief: 'check the Codex set-up',
		usage: 'sift doctor [--db FILE] [--config FILE]',
		summary: 'Check the Codex set-up (binary, version, login, flags, and the tools a run\'s agent would get), the store (--db: a SQLite file or a postgres:// URL) and the config file (each problem on its own line, naming its key); each failure with its fix.',
		flags: [FLAGS.db, FLAGS.config, FLAGS.json, FLAGS.codex, FLAGS.codexConfig, FLAGS.keepApiEnv, FLAGS.allowAgentShell],
	},
};

/** `  left  right`, the right side wrapped under itself when the line would pass 78 columns. */
function column(left: string, right: string, width: number): string {
	const hang = ' '.repeat(width + 4);
	return wrap(`${hang}${right}`).replace(hang, `  ${left.padEnd(width)}  `);
}

function flagLabel(spec: FlagSpec): string {
	if (spec.name === 'help') return '-h, --help';
	return spec.value ? `--${spec.name} ${spec.value}` : `--${spec.name}`;
}

/** Word-wraps a paragraph to `width` columns, keeping its own line breaks. */
function wrap(text: string, width = 78): string {
	return text.split('\n').map(line => {
		const indent = /^\s*/.exec(line)![0];
		const lines: string[] = [];
		let current = '';
		for (const word of line.trim().split(' ')) {
			if (current && indent.length + current.length + 1 + word.length > width) {
				lines.push(indent + current);
				current = word;
			} else {
				current = current ? `${current} ${word}` : word;
			}
		}

		lines.push(indent + current);
		return lines.join('\n');
	}).join('\n');
}

/** `sift COMMAND --help`. */
export function commandHelp(name: string): string {
	const spec = COMMAND_TABLE[name]!;
	const flags = [...spec.flags, {name: 'help', help: 'print this help'} as FlagSpec];
	const width = Math.max(...flags.map(flag => flagLabel(flag).length));
	const lines = [
		`Usage: ${spec.usage}`,
		'',
		wrap(spec.summary),
		'',
		'Options',
		...flags.map(flag => column(flagLabel(flag), flag.help, width)),
	];
	for (const note of spec.notes ?? []) lines.push('', wrap(note));
	if (name !== 'run' && name !== 'watch') lines.push('', EXIT_NOTE);
	return `${lines.join('\n')}\n`;
}

/** `sift --help`. */
export function mainHelp(): string {
	const names = Object.keys(COMMAND_TABLE);
	const lines = [
		'Usage: sift [COMMAND] [options]',
		'',
		'Keyboard triage of record channels in the terminal, with the Codex CLI agent.',
		'',
		'Commands',
		...names.map(name => column(name === 'tui' ? '(none)' : name, COMMAND_TABLE[name]!.brief, 10)),
		'',
		`Options for most commands`,
		column(flagLabel(FLAGS.db), 'the database, a SQLite file or a postgres:// URL (default: $SIFT_DB, else the data dir\'s sift.db)', 21),
		column(flagLabel(FLAGS.statementTimeout), FLAGS.statementTimeout.help, 21),
		column(flagLabel(FLAGS.channel), FLAGS.channel.help, 21),
		column(flagLabel(FLAGS.json), FLAGS.json.help, 21),
		column('-h, --help', 'print help (`sift COMMAND --help` for one command)', 21),
		column('--version', 'print the version', 21),
		'',
		wrap('`sift help COMMAND` (or `sift COMMAND --help`) shows a command\'s options; `sift help tui` the TUI\'s.'),
		wrap(EXIT_NOTE + ' `sift run --help` lists the run\'s own.'),
	];
	return `${lines.join('\n')}\n`;
}
