// The side panel in words, from the facts web/page.py sends (Page.describe): the same wording
// as the simulator's side panel (sim/device.py).

export const NAMES = ["", "Red", "Yellow", "Green", "Blue"];
export const LETTERS = " RYGB";
export const SEAT_RGB = ["", "rgb(235,50,45)", "rgb(245,190,20)", "rgb(40,200,70)", "rgb(50,110,245)"];

const MODE_TITLES = {
  title: "Starting", menu: "Menu", attract: "Demo: press any key", selftest: "Self-test",
  error: "Saved data was damaged: starting fresh",
  lobby: "Linked game: hosting", join: "Linked game: joining",
};

// The menu page on show and its value, or null.
export function menuPage(info) {
  if (info.mode !== "menu" || !info.page) return null;
  const [name, seat] = info.page;
  const s = info.settings;
  switch (name) {
    case "play": return "start the game (select)";
    case "players": return `players ${s.players}${s.players === 1 ? " (solo)" : ""}`;
    case "seat": return `${NAMES[s.seat_colours[seat][0]]} is ${s.seats[seat]}`;
    case "size": return `board ${s.size}x${s.size}`;
    case "teams": return `two colours each: ${s.teams ? "yes" : "no"}`;
    case "rounds": return `rounds ${s.rounds}`;
    case "time": return `time per move: ${s.time_limit ? `${s.time_limit} s` : "off"}`;
    case "tie": return `tie rule: ${s.tie}`;
    case "first": return `first: ${s.first ? NAMES[s.first] : "random"}`;
    case "hints": return `hints ${s.hints ? "on" : "off"}`;
    case "brightness": return `brightness ${s.brightness} of 5`;
    case "palette": return `palette: ${s.colour_blind ? "colour-blind" : "normal"}`;
    case "self-test": return "self-test (select)";
    case "linked": return "join a linked game (select)";
    default: return null;
  }
}

// Each seat: its colours, "Red (human)", its points and whether it is to move.
export function seats(info) {
  const game = info.game;
  if (!game) return [];
  return game.seat_colours.map((colours, seat) => ({
    colours,
    label: colours.map((c) => NAMES[c]).join("+") + (game.kinds[seat] ? ` (${game.kinds[seat]})` : ""),
    points: game.scores[seat],
    toMove: !game.over && colours.includes(game.turn),
  }));
}

// The status lines above the seats; in a linked game the link's words first, as in the
// simulator (sim/device.py).
export function status(info) {
  const lines = gameStatus(info);
  if (info.link) lines.unshift(`Link: ${info.link}`);
  return lines;
}

function gameStatus(info) {
  const game = info.game;
  if (!game) {
    const page = menuPage(info);
    if (page) return [`Menu: ${page}`, "up/down: page, left/right: change"];
    return [MODE_TITLES[info.mode] || "Menu"];
  }
  let lines;
  if (game.over) {
    const rows = seats(info);
    const winners = game.winners;
    if (!winners.length) lines = ["Round over: a tie for no one"];
    else if (winners.length === 1) lines = [`Round over: ${rows[winners[0]].label} wins`];
    else lines = ["Round over: shared win"];
  } else {
    const moving = NAMES[game.turn];
    const thinking = game.phase === "think" ? ", thinking" : "";
    lines = [`Board ${game.size}x${game.size}, move ${game.moves.length + 1}: ${moving}${thinking}`];
  }
  if (info.mode === "pause") lines.unshift("Paused: up/down choose, select confirms");
  if (info.mode === "attract") lines.unshift(MODE_TITLES.attract);
  if (game.rounds > 1) lines.push(`Round ${game.round} of ${game.rounds}`);
  return lines;
}

// What SELECT (Enter, a click) and BACK (Esc) lead to on the screens between moves, as the
// simulator window says it (sim/device.py), or null.
export function prompt(info) {
  const game = info.game;
  switch (info.mode) {
    case "round_end":
      if (!info.pour_done) return "Enter: show the score";
      return game && game.rounds > 1 ? "Enter: next (rounds won) · Esc: menu" : "Enter: play again · Esc: menu";
    case "table":
      return info.match_over ? "Enter: the match winner · Esc: menu" : "Enter: next round · Esc: menu";
    case "match_end":
      return "Enter: play again · Esc: menu";
    default:
      return null;
  }
}

// "R d4" per move.
export function moves(info) {
  return info.game ? info.game.moves.map(([colour, cell]) => `${LETTERS[colour]} ${cell}`) : [];
}
