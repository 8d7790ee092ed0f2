import {Box, Text} from '#ink';
import {sanitize} from '../../text/sanitize.js';
import {useTheme} from '../theme.js';

/** What a database without a channel opens on: how to get records into it. */
export function EmptyScreen({dbPath, width}: {dbPath: string; width: number}) {
	const db = sanitize(dbPath);
	const theme = useTheme();
	return (
		<Box flexDirection="column" width={width} paddingX={1}>
			<Text bold>sift — no channel yet</Text>
			<Text> </Text>
			<Text wrap="wrap">{`The database ${db} has no channel to triage.`}</Text>
			<Text> </Text>
			<Text>Import one from a JSON file:</Text>
			<Text color={theme.color('cyan')}>{`  sift import channel.json --db ${db}`}</Text>
			<Text dimColor>{'  ({"channel": {"id", "name", "fields": [...]}, "items": [{"values": {...}}]})'}</Text>
			<Text> </Text>
			<Text>Or start the demo bug tracker:</Text>
			<Text color={theme.color('cyan')}>  sift demo</Text>
			<Text> </Text>
			<Text dimColor>q quits</Text>
		</Box>
	);
}
