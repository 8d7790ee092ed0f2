// The flags type, the command context and `UsageError` (exit 2)

import type {Writable} from 'node:stream';

/** Every flag the command line knows; each subcommand reads the ones it needs. */
export type CliFlags = {
	db?: string;
	/** PostgreSQL: the statement timeout in seconds (0: none). */
	statementTimeout?: number;
	channel?: string;
	json: boolean;
	// demo: how many items to generate
	items?: number;
	// run: which items to work on (`--items ID,...`)
	itemIds?: string[];
	// run / watch: items per Codex run, runs at once
	batch?: number;
	parallel?: number;
	// watch: how long a batch waits to fill (`5s`), what the agent is asked
	settle?: string;
	instruction?: string;
	seed?: number;
	reset: boolean;
	open: boolean;
	// list / events
	before?: string;
	limit?: number;
	filter: string[];
	// list: every page
	all: boolean;
	// list / edit: the query language, list: its order and a page's cursor
	where?: string;
	sort?: string;
	cursor?: string;
	// edit --where: go ahead however many items match
	yes?: boolean;
	after?: number;
	// edit
	expectVersion?: number;
	// mcp
	grant: string[];
	actor?: string;
	run?: string;
	/** mcp: stop serving once this process is gone */
	ownerPid?: number;
	/** mcp: the variable that holds the store location (a run's, kept off the command line) */
	dbEnv?: string;
	// codex runs
	model?: string;
	timeout?: number;
	codex?: string;
	codexConfig: string[];
	keepApiEnv: boolean;
	/** run / watch / the TUI: start even when the agent would keep a shell Codex cannot turn off */
	allowAgentShell?: boolean;
	/** run / watch / mcp: the agent's valid edits become proposals for a person (docs/review.md) */
	propose?: boolean;
	/** proposals accept: write even where a proposed field changed since the proposal's base */
	force?: boolean;
	/** `sift proposals accept --min-confidence N`: only proposals the agent was at least this sure of. */
	minConfidence?: string;
	/** `sift mcp --auto-accept-above N` (a run's, from the config's auto_accept_above): proposals this sure are accepted on arrival. */
	autoAcceptAbove?: string;
	// the TUI: the config file instead of $XDG_CONFIG_HOME/sift/config.yaml
	config?: string;
	// serve / token / run --server
	listen?: string;
	allowHost?: string[];
	rate?: number;
	name?: string;
	expires?: string;
	scope?: string;
	server?: string;
	// import: the file's format, its column map, the channel to append to and its key field; export: the format and the file
	format?: string;
	map?: string;
	into?: string;
	key?: string;
	growOptions?: boolean;
	dryRun?: boolean;
	schemaOut?: string;
	// export's file and its CSV cells' exact bytes; channel add-field / add-option / set
	out?: string;
	csvRaw?: boolean;
	label?: string;
	color?: string;
	fieldConfig?: string;
	/** `channel add-field --option VALUE[:LABEL]`, in order. */
	option?: string[];
	required?: boolean;
	migrateTo?: string;
	// sync: repeat until interrupted, and how long between rounds
	watch?: boolean;
	interval?: string;
	// eval --similar: measure find_similar_items on the duplicate links of a pairs file
	similar?: boolean;
	pairs?: string;
	// eval --fields: the agent measured on a scratch copy (the fields hidden, a sample, keep the copy)
	fields?: string[];
	sample?: number;
	keep?: boolean;
	/** `sync add redmine --project IDENTIFIER`. */
	project?: string;
	// followups resolve: keep our value, take theirs, or write this one (JSON when it parses)
	ours?: boolean;
	theirs?: boolean;
	value?: string;
};

export type CommandContext = {
	/** Positional arguments after the subcommand name. */
	input: string[];
	flags: CliFlags;
	stdout: Writable;
	stderr: Writable;
	env: NodeJS.ProcessEnv;
};

/** A subcommand resolves to its exit code (0 ok, 1 refused or failed, 2 usage). */
export type Command = (context: CommandContext) => Promise<number>;

/** Thrown for a malformed command line; the CLI prints the message and exits 2. */
export class UsageError extends Error {
	override name = 'UsageError';
}
