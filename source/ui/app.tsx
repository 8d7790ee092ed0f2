import {Box, Text, useApp, useInput} from '#ink';
import {useState} from 'react';
import type {ChannelSummary, Store} from '../../store/index.js';
import {EmptyScreen} from './components/empty.js';
import {Picker} from './components/picker.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {actionFor, keyName} from './keys.js';
import {sanitize} from '../text/sanitize.js';
import {Screen, type ScreenProps} from './screen.js';
import {makeTheme, ThemeProvider, type Theme} from './theme.js';

export type AppProps = {
	store: Store;
	dbPath: string;
	/** --channel; else the only channel, else a chooser. */
	channelId?: string;
	run: ScreenProps['run'];
	pollRetryMaxMs?: ScreenProps['pollRetryMaxMs'];
	theme?: Theme;
};

function ChannelChooser({store, onChoose}: {store: Store; onChoose: (id: string) => void}) {
	// Item counts are shown only here, so they are counted only when the chooser opens.
	const [channels] = useState<ChannelSummary[]>(() => store.listChannels());
	const {exit} = useApp();
	const size = useTerminalSize();
	const [cursor, setCursor] = useState(0);
	useInput((input, key) => {
		const action = actionFor('picker', input, key);
		if (action === 'down') setCursor((cursor + 1) % channels.length);
		else if (action === 'up') setCursor((cursor - 1 + channels.length) % channels.length);
		else if (action === 'choose') onChoose(channels[cursor]!.id);
		else if (action === 'cancel' || keyName(input, key) === 'ctrl+c') exit();
	});
	return (
		<Picker
			title="Which channel? (Enter opens, q quits)"
			choices={channels.map(channel => ({key: channel.id, segments: [{text: sanitize(channel.name)}], hint: `${sanitize(channel.id)} · ${channel.item_count.toLocaleString('en-US')} items`}))}
			cursor={cursor}
			width={size.columns}
			height={Math.min(size.rows - 1, channels.length + 1)}
		/>
	);
}

function Empty({dbPath}: {dbPath: string}) {
	const {exit} = useApp();
	const size = useTerminalSize();
	useInput((input, key) => {
		if (input === 'q' || key.escape || keyName(input, key) === 'ctrl+c') exit();
	});
	return <EmptyScreen dbPath={dbPath} width={size.columns}/>;
}

/** The TUI: the empty-database screen, a channel chooser, or the triage screen of one channel. */
export function App(props: AppProps) {
	const [channels] = useState(() => props.store.listChannelNames());
	const [channelId, setChannelId] = useState<string | undefined>(() => props.channelId ?? (channels.length === 1 ? channels[0]!.id : undefined));
	const theme = props.theme ?? makeTheme();
	let content;
	if (channelId !== undefined && (channels.some(channel => channel.id === channelId))) {
		content = <Screen key={channelId} store={props.store} channelId={channelId} dbPath={props.dbPath} run={props.run} pollRetryMaxMs={props.pollRetryMaxMs}/>;
	} else if (channelId !== undefined) {
		content = <Box><Text color={theme.color('red')}>{`No channel ${sanitize(channelId)} in ${sanitize(props.dbPath)}.`}</Text></Box>;
	} else if (channels.length === 0) {
		content = <Empty dbPath={props.dbPath}/>;
	} else {
		content = <ChannelChooser store={props.store} onChoose={setChannelId}/>;
	}

	return <ThemeProvider theme={theme}>{content}</ThemeProvider>;
}
