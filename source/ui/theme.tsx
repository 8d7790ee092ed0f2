import {createContext, useContext, type ReactNode} from 'react';

/** Colors the app may use; NO_COLOR turns every one off (attributes such as inverse stay). */
const NAMED = new Set(['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray', 'grey', 'blackBright', 'redBright', 'greenBright', 'yellowBright', 'blueBright', 'magentaBright', 'cyanBright', 'whiteBright']);

export type Theme = {
	/** A safe color for Ink, or undefined (no color, an unknown name, or NO_COLOR). */
	color: (name: string | undefined) => string | undefined;
	colorful: boolean;
};

/** The theme for the environment; `mono` (the config file's theme) draws without colors, as NO_COLOR does. */
export function makeTheme(env: NodeJS.ProcessEnv = process.env, options: {mono?: boolean} = {}): Theme {
	const colorful = !options.mono && (env.NO_COLOR === undefined || env.NO_COLOR === '');
	return {
		colorful,
		color(name) {
			if (!colorful || !name) {
				return undefined;
			}

			return NAMED.has(name) || /^#[\da-f]{6}$/i.test(name) ? name : undefined;
		},
	};
}

const ThemeContext = createContext<Theme>(makeTheme());

export function ThemeProvider({theme, children}: {theme: Theme; children: ReactNode}) {
	return <ThemeContext.Provider value={theme}>{children}</ThemeContext.Provider>;
}

export const useTheme = () => useContext(ThemeContext);
