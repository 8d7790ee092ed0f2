import {Box, Text, useApp, useInput} from '#ink';
import {useEffect, useRef, useState} from 'react';
import type {AsyncStore} from '../../store/api.js';
import type {ChannelSummary} from '../../store/index.js';
import {EmptyScreen} from './components/empty.js';
import {openingOf, type Opening} from './first-screen.js';
import {Picker} from './components/picker.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {keyName} from './keys.js';
import {bindingFor} from './registry.js';
import {sanitize} from '../text/sanitize.js';
import {thousands} from '../text/format.js';
import {Screen, type ScreenProps} from './screen.js';
import {makeTheme, ThemeProvider, useTheme, type Theme} from './theme.js';

export type AppProps = {
	store: AsyncStore;
	dbPath: string;
	/** --channel; else the only channel, else a chooser. */
	channelId?: string;
	run: ScreenProps['run'];
	pollRetryMaxMs?: ScreenProps['pollRetryMaxMs'];
	theme?: Theme;
	config?: ScreenProps['config'];
	lockWaits?: ScreenProps['lockWaits'];
	syncNotices?: ScreenProps['syncNotices'];
	/** What opens on `channelId`, when it was read before the app mounted (first-screen.ts): drawn in the first frame. */
	opening?: Opening;
};

/** Keys that leave a screen with nothing else to do: q, Esc, Ctrl+C. */
function useExitKeys() {
	const {exit} = useApp();
	useInput((input, key) => {
		if (input === 'q' || key.escape || keyName(input, key) === 'ctrl+c') exit();
	});
}

function ChannelChooser({channels, onChoose}: {channels: ChannelSummary[]; onChoose: (id: string) => void}) {
	const {exit} = useApp();
	const size = useTerminalSize();
	const [cursor, setCursor] = useState(0);
	useInput((input, key) => {
		const action = bindingFor('picker', input, key)?.action;
		if (action === 'down') setCursor((cursor + 1) % channels.length);
		else if (action === 'up') setCursor((cursor - 1 + channels.length) % channels.length);
		else if (action === 'choose') onChoose(channels[cursor]!.id);
		else if (action === 'cancel' || keyName(input, key) === 'ctrl+c') exit();
	});
	return (
		<Picker
			title="Which channel? (Enter opens, q quits)"
			choices={channels.map(channel => ({key: channel.id, segments: [{text: sanitize(channel.name)}], hint: `${sanitize(channel.id)} · ${thousands(channel.item_count)} items`}))}
			cursor={cursor}
			width={size.columns}
			height={Math.min(size.rows - 1, channels.length + 1)}
		/>
	);
}

function Empty({dbPath}: {dbPath: string}) {
	const size = useTerminalSize();
	useExitKeys();
	return <EmptyScreen dbPath={dbPath} width={size.columns}/>;
}

function Notice({text, tone}: {text: string; tone?: 'red'}) {
	useExitKeys();
	const theme = useTheme();
	return <Box><Text color={tone ? theme.color(tone) : undefined}>{text}</Text></Box>;
}

type Loaded = {kind: 'loading'} | Opening;

/** The TUI: the empty-database screen, a channel chooser, or the triage screen of one channel. */
export function App(props: AppProps) {
	const [loaded, setLoaded] = useState<Loaded>(props.opening ?? {kind: 'loading'});
	const [chosen, setChosen] = useState(props.channelId);
	// The opening read before the app mounted stands for the first load only; a channel chosen later is read here.
	const preloaded = useRef(props.opening !== undefined);
	const theme = props.theme ?? makeTheme();
	const {store} = props;
	const {exit} = useApp();
	useEffect(() => {
		if (preloaded.current) {
			preloaded.current = false;
			return;
		}

		let live = true;
		setLoaded({kind: 'loading'});
		openingOf(store, chosen).then(result => {
			if (live) setLoaded(result);
		}, (error: unknown) => {
			// A database the screen cannot even open on ends the app with the error, like a crash while drawing.
			if (live) exit(error as Error);
		});
		return () => {
			live = false;
		};
	}, [store, chosen, exit]);

	let content;
	switch (loaded.kind) {
		case 'loading': { content = <Notice text="Loading…"/>; break; }
		case 'missing': { content = <Notice tone="red" text={`No channel ${sanitize(loaded.channelId)} in ${sanitize(store.location)}.`}/>; break; }
		case 'channels': {
			content = loaded.channels.length === 0 ? <Empty dbPath={store.location}/> : <ChannelChooser channels={loaded.channels} onChoose={setChosen}/>;
			break;
		}

		case 'screen': {
			content = <Screen key={loaded.channel.id} store={store} channel={loaded.channel} summary={loaded.summary} otherIds={loaded.otherIds} dbPath={props.dbPath} run={props.run} config={props.config} lockWaits={props.lockWaits} syncNotices={props.syncNotices} pollRetryMaxMs={props.pollRetryMaxMs} onSwitchChannel={setChosen} start={loaded.start}/>;
			break;
		}
	}

	return <ThemeProvider theme={theme}>{content}</ThemeProvider>;
}
