// What a link gives the page: ?seed=5&journal=1 when it loads, #record=…&players=human,hard&size=6
// to open a game. An address is typed by hand and shared in chats: every part is checked here,
// and what is wrong comes back in words (the page says "This link could not be opened: …").

export const MAX_RECORD = 64 * 1024; // as a loaded file: more is not a game record
const GAME_KEYS = ["record", "players", "size"];
const LOAD_KEYS = ["seed", "journal"]; // only when the page loads

// The settings of one part of an address ("a=1&b=2", without its ? or #): { values, problems }.
// Names are case-insensitive; a name given twice, an unknown name or a bad value is a problem.
export function readLink(text, loading) {
  const values = {};
  const problems = [];
  const known = loading ? [...GAME_KEYS, ...LOAD_KEYS] : GAME_KEYS;
  let entries;
  try {
    entries = [...new URLSearchParams(text)];
  } catch (error) {
    return { values, problems: [`it is not a list of settings (${error.message})`] };
  }
  for (const [rawKey, value] of entries) {
    const key = rawKey.trim().toLowerCase();
    if (!key && !value) continue; // "#" or "&&": nothing there
    if (!known.includes(key)) {
      problems.push(LOAD_KEYS.includes(key) ? `${key} works only when the page loads (put it before the #)`
        : `unknown setting '${clip(rawKey)}' (a link takes ${known.join(", ")})`);
    } else if (key in values) {
      problems.push(`${key} is given twice`);
    } else {
      values[key] = value;
    }
  }
  const { seed, journal, size, record, players } = values;
  if (seed !== undefined && !/^\s*\d{1,10}\s*$/.test(seed)) {
    problems.push(`seed '${clip(seed)}' is not a whole number`);
    delete values.seed;
  }
  if (journal !== undefined && !["0", "1"].includes(journal.trim())) {
    problems.push(`journal is 0 or 1, not '${clip(journal)}'`);
    delete values.journal;
  }
  if (size !== undefined && !["8", "6", "4"].includes(size.trim())) {
    problems.push(`size is 8, 6 or 4, not '${clip(size)}'`);
  }
  if (record !== undefined && record.length > MAX_RECORD) {
    problems.push(`its record is ${record.length} characters: too long to be a game record`);
  }
  if (record !== undefined && size !== undefined) {
    problems.push("a record gives its own board size: leave size out");
  }
  if (size !== undefined && record === undefined && players === undefined) {
    problems.push("size needs players too (for example #players=human,hard&size=6)");
  }
  if (players !== undefined && !players.trim()) problems.push("players is empty (for example players=human,hard)");
  return { values, problems };
}

// Whether the part opens a game: any of record, players, size given.
export function opensGame(link) {
  return GAME_KEYS.some((key) => key in link.values);
}

function clip(text) {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
