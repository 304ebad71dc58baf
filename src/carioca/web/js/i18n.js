// The page's words in Spanish, English, German and Swedish. The game's own words (trío,
// escala, bajarse, agregar, pozo, mazo, comodín) are kept in every language, as in RULES.md.
export const LANGS = { es: "Español", en: "English", de: "Deutsch", sv: "Svenska" };
const KEY = "carioca.lang";

const W = {
  // ---------------------------------------------------------------- general
  title: { es: "Carioca", en: "Carioca", de: "Carioca", sv: "Carioca" },
  tagline: { es: "El rummy chileno de contratos, en línea", en: "The Chilean contract rummy, online", de: "Das chilenische Kontrakt-Rommé, online", sv: "Chilensk kontraktsrummy, online" },
  language: { es: "Idioma", en: "Language", de: "Sprache", sv: "Språk" },
  four_colour: { es: "Naipe de cuatro colores", en: "Four-colour deck", de: "Vierfarbiges Blatt", sv: "Fyrfärgad kortlek" },
  your_name: { es: "Tu nombre", en: "Your name", de: "Dein Name", sv: "Ditt namn" },
  name_needed: { es: "Escribe tu nombre primero", en: "Type your name first", de: "Gib zuerst deinen Namen ein", sv: "Skriv ditt namn först" },
  create_table: { es: "Crear una mesa", en: "Create a table", de: "Tisch erstellen", sv: "Skapa ett bord" },
  join_table: { es: "Unirse con un código", en: "Join with a code", de: "Mit Code beitreten", sv: "Gå med via kod" },
  code: { es: "Código", en: "Code", de: "Code", sv: "Kod" },
  code_needed: { es: "Escribe el código de la mesa", en: "Type the table's code", de: "Gib den Code des Tisches ein", sv: "Skriv bordets kod" },
  home_link: { es: "Carioca: inicio", en: "Carioca: home", de: "Carioca: Startseite", sv: "Carioca: startsida" },
  join: { es: "Unirse", en: "Join", de: "Beitreten", sv: "Gå med" },
  watch: { es: "Mirar", en: "Watch", de: "Zuschauen", sv: "Titta på" },
  preset: { es: "Reglas", en: "Rules", de: "Regeln", sv: "Regler" },
  seats: { es: "Asientos", en: "Seats", de: "Plätze", sv: "Platser" },
  seat_n: { es: "Asiento {n}", en: "Seat {n}", de: "Platz {n}", sv: "Plats {n}" },
  you: { es: "tú", en: "you", de: "du", sv: "du" },
  host: { es: "anfitrión", en: "host", de: "Gastgeber", sv: "värd" },
  human: { es: "Persona (esperar que llegue)", en: "Person (wait)", de: "Mensch (warten)", sv: "Människa (vänta)" },
  bot: { es: "Bot", en: "Bot", de: "Bot", sv: "Bot" },
  bots_for_empty: { es: "Bots en los asientos vacíos", en: "Bots for empty seats", de: "Bots für freie Plätze", sv: "Bottar på tomma platser" },
  level_n: { es: "nivel {n}", en: "level {n}", de: "Stufe {n}", sv: "nivå {n}" },
  bot_level: { es: "Nivel", en: "Level", de: "Stufe", sv: "Nivå" },
  players_range: { es: "{min} a {max} jugadores", en: "{min} to {max} players", de: "{min} bis {max} Spieler", sv: "{min} till {max} spelare" },
  create: { es: "Crear la mesa", en: "Create the table", de: "Tisch erstellen", sv: "Skapa bordet" },
  table_ready: { es: "¡Mesa lista!", en: "Table ready!", de: "Tisch bereit!", sv: "Bordet är klart!" },
  // Said by a screen reader when the table is made; the code comes spelled out ("Q 7 X K 2 M").
  table_made: { es: "Mesa lista. El código es {code}", en: "Table ready. The code is {code}", de: "Tisch bereit. Der Code ist {code}", sv: "Bordet är klart. Koden är {code}" },
  share_link: { es: "Comparte este enlace", en: "Share this link", de: "Teile diesen Link", sv: "Dela den här länken" },
  or_code: { es: "o el código", en: "or the code", de: "oder den Code", sv: "eller koden" },
  copy: { es: "Copiar", en: "Copy", de: "Kopieren", sv: "Kopiera" },
  copied: { es: "Copiado", en: "Copied", de: "Kopiert", sv: "Kopierat" },
  go_to_table: { es: "Ir a la mesa", en: "Go to the table", de: "Zum Tisch", sv: "Gå till bordet" },
  replay_link: { es: "Ver una partida guardada", en: "Watch a saved game", de: "Gespeichertes Spiel ansehen", sv: "Titta på ett sparat parti" },
  rules_link: { es: "Leer estas reglas, ronda por ronda", en: "Read these rules, round by round", de: "Diese Regeln lesen, Runde für Runde", sv: "Läs de här reglerna, runda för runda" },
  table_rules_link: { es: "Las reglas de esta mesa", en: "This table's rules", de: "Die Regeln dieses Tisches", sv: "Det här bordets regler" },
  table_rules: { es: "Reglas de la mesa {code}", en: "Rules of table {code}", de: "Regeln von Tisch {code}", sv: "Regler för bord {code}" },
  rules_of: { es: "reglas de {name}", en: "rules of {name}", de: "Regeln: {name}", sv: "regler: {name}" },
  anotador_link: { es: "Anotador para jugar con cartas de verdad (funciona sin internet)", en: "Score sheet for a game with real cards (works offline)", de: "Punkteblock für ein Spiel mit echten Karten (funktioniert offline)", sv: "Protokoll för ett parti med riktiga kort (fungerar offline)" },
  rules_changed: { es: "{n} reglas cambiadas", en: "{n} rules changed", de: "{n} Regeln geändert", sv: "{n} regler ändrade" },
  rules_changed_1: { es: "1 regla cambiada", en: "1 rule changed", de: "1 Regel geändert", sv: "1 regel ändrad" },
  reset_rules: { es: "Volver a las reglas originales", en: "Back to the preset", de: "Zurück zur Vorgabe", sv: "Tillbaka till förvalet" },
  on: { es: "sí", en: "yes", de: "ja", sv: "ja" },
  off: { es: "no", en: "no", de: "nein", sv: "nej" },
  no_limit: { es: "sin límite", en: "no limit", de: "unbegrenzt", sv: "ingen gräns" },
  as_any_out: { es: "como irse", en: "as going out", de: "wie normales Ausgehen", sv: "samma som att gå ut" },
  auto: { es: "automático", en: "automatic", de: "automatisch", sv: "automatiskt" },
  none: { es: "ninguno", en: "none", de: "keiner", sv: "ingen" },
  seconds: { es: "{n} s", en: "{n} s", de: "{n} s", sv: "{n} s" },
  unlimited: { es: "sin límite", en: "unlimited", de: "unbegrenzt", sv: "obegränsad" },
  round_n: { es: "Ronda {n}", en: "Round {n}", de: "Runde {n}", sv: "Runda {n}" },
  round_of: { es: "Ronda {n} de {m}", en: "Round {n} of {m}", de: "Runde {n} von {m}", sv: "Runda {n} av {m}" },
  cards_n: { es: "{n} cartas", en: "{n} cards", de: "{n} Karten", sv: "{n} kort" },
  card_1: { es: "1 carta", en: "1 card", de: "1 Karte", sv: "1 kort" },
  at_once: { es: "hay que irse de una", en: "go out at once", de: "auf einmal ausgehen", sv: "gå ut på en gång" },

  // ---------------------------------------------------------------- groups of options
  g_rounds: { es: "Rondas", en: "Rounds", de: "Runden", sv: "Rundor" },
  g_jokers: { es: "Comodines", en: "Jokers", de: "Joker", sv: "Jokrar" },
  g_red_aces: { es: "Ases rojos", en: "Red aces", de: "Rote Asse", sv: "Röda ess" },
  g_joker_limit: { es: "Límite de comodines", en: "Joker limit", de: "Joker-Grenze", sv: "Jokergräns" },
  g_joker_replacement: { es: "Cambiar el comodín", en: "Joker replacement", de: "Joker austauschen", sv: "Byta ut jokern" },
  g_stealing: { es: "Comprar del pozo", en: "Stealing from the pozo", de: "Kaufen aus dem Pozo", sv: "Köpa från pozon" },
  g_turn: { es: "El turno y su tiempo", en: "The turn and its timer", de: "Der Zug und seine Zeit", sv: "Turen och dess tid" },
  g_undo: { es: "Deshacer", en: "Undo", de: "Rückgängig", sv: "Ångra" },
  g_open_hands: { es: "Manos abiertas y pistas", en: "Open hands and hints", de: "Offene Karten und Tipps", sv: "Öppna händer och tips" },
  g_scoring: { es: "Puntos y desempate", en: "Scoring and ties", de: "Punkte und Gleichstand", sv: "Poäng och oavgjort" },
  g_values: { es: "Valor de las cartas", en: "Card values", de: "Kartenwerte", sv: "Kortvärden" },
  g_other: { es: "Otras reglas", en: "Other rules", de: "Weitere Regeln", sv: "Övriga regler" },

  // ---------------------------------------------------------------- options
  o_rounds: { es: "Rondas que se juegan", en: "Rounds to play", de: "Gespielte Runden", sv: "Rundor som spelas" },
  o_contracts: { es: "Contratos (avanzado)", en: "Contracts (advanced)", de: "Kontrakte (fortgeschritten)", sv: "Kontrakt (avancerat)" },
  o_hand_size: { es: "Cartas repartidas", en: "Cards dealt", de: "Ausgeteilte Karten", sv: "Utdelade kort" },
  o_jokers: { es: "Comodines (jokers) por naipe", en: "Jokers per pack", de: "Joker pro Kartenspiel", sv: "Jokrar per kortlek" },
  o_wilds: { es: "Cartas que son comodín", en: "Cards that are wild", de: "Karten, die Joker sind", sv: "Kort som är jokrar" },
  o_decks: { es: "Naipes", en: "Packs", de: "Kartenspiele", sv: "Kortlekar" },
  o_third_deck_from: { es: "Tercer naipe desde (jugadores)", en: "Third pack from (players)", de: "Drittes Kartenspiel ab (Spielerzahl)", sv: "Tredje kortlek från (antal spelare)" },
  o_max_wilds_per_meld: { es: "Comodines por juego como máximo", en: "Most wilds per meld", de: "Max. Joker pro Kombination", sv: "Max antal jokrar per kombination" },
  o_wild_limit_on_layoff: { es: "El límite vale también al agregar (estricto)", en: "The limit holds when laying off too (strict)", de: "Die Grenze gilt auch beim Anlegen (streng)", sv: "Gränsen gäller även vid påläggning (strikt)" },
  o_joker_replacement: { es: "Cambiar un comodín por la carta natural", en: "Swap a wild for its natural card", de: "Joker gegen die echte Karte tauschen", sv: "Byt en joker mot det riktiga kortet" },
  o_buying: { es: "Comprar la carta del pozo fuera de turno", en: "Buy the pozo card out of turn", de: "Pozo-Karte außer der Reihe kaufen", sv: "Köp pozokortet utanför tur" },
  o_max_buys_per_round: { es: "Compras por ronda como máximo", en: "Most buys per round", de: "Max. Käufe pro Runde", sv: "Max antal köp per runda" },
  o_steal_points: { es: "Puntos de castigo por compra", en: "Penalty points per buy", de: "Strafpunkte pro Kauf", sv: "Straffpoäng per köp" },
  o_layoff_same_turn: { es: "Agregar en el mismo turno en que te bajas", en: "Lay off in the turn you bajarse", de: "Anlegen im selben Zug wie das Auslegen", sv: "Lägg på samma tur som du lägger ner" },
  o_go_out_by_layoff: { es: "Irse agregando la última carta (sin botar)", en: "Go out by laying off the last card", de: "Ausgehen durch Anlegen der letzten Karte", sv: "Gå ut genom att lägga på sista kortet" },
  o_partial_contracts: { es: "Bajar el contrato por partes (rumi)", en: "Lay the contract in parts (rumi)", de: "Kontrakt in Teilen auslegen (Rumi)", sv: "Lägg kontraktet i delar (rumi)" },
  o_exact_melds: { es: "Al bajarse: trío de 3 y escala de 4 exactos", en: "When laid: exactly 3 in a trío, 4 in an escala", de: "Beim Auslegen: genau 3 im Trío, 4 in der Escala", sv: "Vid utläggning: exakt 3 i trío, 4 i escala" },
  o_wrap: { es: "La escala da la vuelta (K-A-2)", en: "Escalas wrap around (K-A-2)", de: "Escalas dürfen ums Ass herum (K-A-2)", sv: "Escalas går runt (K-A-2)" },
  o_bury_wild_first_discard: { es: "Un comodín dado vuelta se entierra", en: "A wild turned up is buried", de: "Ein aufgedeckter Joker kommt unter den Mazo", sv: "En uppvänd joker läggs under mazon" },
  o_undo: { es: "Deshacer dentro del turno (antes de botar)", en: "Undo within the turn (before the discard)", de: "Rückgängig im Zug (vor dem Abwerfen)", sv: "Ångra inom turen (före kastet)" },
  o_open_hands: { es: "Manos abiertas (todos ven todas las cartas)", en: "Open hands (everyone sees every hand)", de: "Offene Karten (alle sehen alle Hände)", sv: "Öppna händer (alla ser alla kort)" },
  o_scoring: { es: "Cómo se gana", en: "How to win", de: "Wie man gewinnt", sv: "Hur man vinner" },
  o_tie_break: { es: "Empate", en: "Ties", de: "Gleichstand", sv: "Oavgjort" },
  o_out_score: { es: "Puntos por irse", en: "Points for going out", de: "Punkte fürs Ausgehen", sv: "Poäng för att gå ut" },
  o_instant_out_score: { es: "Puntos por irse de una", en: "Points for going out at once", de: "Punkte fürs Ausgehen auf einmal", sv: "Poäng för att gå ut direkt" },
  o_values: { es: "Puntos de cada carta que queda en la mano", en: "Points of each card left in hand", de: "Punkte jeder Karte auf der Hand", sv: "Poäng för varje kort kvar på handen" },
  o_max_reshuffles: { es: "Veces que se rearma el mazo", en: "Times the mazo is rebuilt", de: "Wie oft der Mazo neu gemischt wird", sv: "Hur många gånger mazon byggs om" },
  o_max_turns_per_round: { es: "Turnos por ronda como máximo", en: "Most turns per round", de: "Max. Züge pro Runde", sv: "Max antal turer per runda" },
  o_min_players: { es: "Jugadores como mínimo", en: "Fewest players", de: "Mindestzahl Spieler", sv: "Minsta antal spelare" },
  o_max_players: { es: "Jugadores como máximo", en: "Most players", de: "Höchstzahl Spieler", sv: "Högsta antal spelare" },
  o_extra_rounds_cap: { es: "Rondas extra como máximo", en: "Most extra rounds", de: "Max. Zusatzrunden", sv: "Max antal extrarundor" },
  turn_timer: { es: "Tiempo por turno", en: "Turn timer", de: "Zeit pro Zug", sv: "Tid per tur" },
  steal_timer: { es: "Tiempo para comprar", en: "Time to buy", de: "Zeit zum Kaufen", sv: "Tid att köpa" },
  hints: { es: "Botón de pista (el entrenador)", en: "Hint button (the coach)", de: "Tipp-Knopf (der Trainer)", sv: "Tipsknapp (tränaren)" },
  match: { es: "Partidas", en: "Games", de: "Spiele", sv: "Partier" },
  match_1: { es: "Una", en: "One game", de: "Ein Spiel", sv: "Ett parti" },
  match_3: { es: "Al mejor de 3", en: "Best of 3", de: "Best of 3", sv: "Bäst av 3" },
  match_5: { es: "Al mejor de 5", en: "Best of 5", de: "Best of 5", sv: "Bäst av 5" },

  // choices
  "c_buying.off": { es: "no se compra", en: "no buying", de: "kein Kaufen", sv: "inget köp" },
  "c_buying.penalty_card": { es: "sí, con una carta de castigo del mazo", en: "yes, with a penalty card from the mazo", de: "ja, mit einer Strafkarte vom Mazo", sv: "ja, med ett straffkort från mazon" },
  "c_buying.penalty_points": { es: "sí, con puntos de castigo (+2)", en: "yes, with penalty points (+2)", de: "ja, mit Strafpunkten (+2)", sv: "ja, med straffpoäng (+2)" },
  "c_scoring.points": { es: "menos puntos", en: "fewest points", de: "die wenigsten Punkte", sv: "minst poäng" },
  "c_scoring.rounds": { es: "más rondas ganadas", en: "most rounds won", de: "die meisten gewonnenen Runden", sv: "flest vunna rundor" },
  "c_tie_break.share": { es: "se comparte la victoria", en: "the win is shared", de: "der Sieg wird geteilt", sv: "segern delas" },
  "c_tie_break.most_outs": { es: "gana quien se fue más veces", en: "who went out most wins", de: "wer öfter ausging, gewinnt", sv: "den som gick ut flest gånger vinner" },
  "c_tie_break.extra_round": { es: "una ronda extra", en: "an extra round", de: "eine Zusatzrunde", sv: "en extrarunda" },
  "c_joker_replacement.off": { es: "no", en: "no", de: "nein", sv: "nej" },
  "c_joker_replacement.take": { es: "sí, quien ya se bajó se lleva el comodín", en: "yes, a player who is down takes the joker", de: "ja, wer ausgelegt hat, nimmt den Joker", sv: "ja, den som lagt ner tar jokern" },
  "c_joker_replacement.anyone": { es: "sí, cualquiera en su turno se lleva el comodín", en: "yes, anyone in their turn takes the joker", de: "ja, jeder in seinem Zug nimmt den Joker", sv: "ja, vem som helst på sin tur tar jokern" },
  "c_joker_replacement.relocate": { es: "sí, el comodín se mueve a una punta de la escala", en: "yes, the joker moves to an end of the escala", de: "ja, der Joker rückt an ein Ende der Escala", sv: "ja, jokern flyttas till en ände av escalan" },
  "c_wilds.jokers": { es: "los jokers", en: "jokers", de: "die Joker", sv: "jokrarna" },
  "c_wilds.twos": { es: "los doses", en: "twos", de: "die Zweien", sv: "tvåorna" },
  "c_wilds.red_aces": { es: "los ases rojos (A♥ A♦)", en: "red aces (A♥ A♦)", de: "die roten Asse (A♥ A♦)", sv: "de röda essen (A♥ A♦)" },

  // ---------------------------------------------------------------- contracts
  trio: { es: "trío", en: "trío", de: "Trío", sv: "trío" },
  escala: { es: "escala", en: "escala", de: "Escala", sv: "escala" },
  joker_card: { es: "comodín", en: "joker", de: "Joker", sv: "joker" },
  stands_for: { es: "en lugar de {card}", en: "standing for {card}", de: "steht für {card}", sv: "står för {card}" },
  // A card in words, for screen readers: "7 de corazones", "Herz 7".
  card_name: { es: "{rank} de {suit}", en: "{rank} of {suit}", de: "{suit} {rank}", sv: "{suit} {rank}" },
  "rank.A": { es: "as", en: "ace", de: "Ass", sv: "ess" },
  "rank.J": { es: "jota", en: "jack", de: "Bube", sv: "knekt" },
  "rank.Q": { es: "reina", en: "queen", de: "Dame", sv: "dam" },
  "rank.K": { es: "rey", en: "king", de: "König", sv: "kung" },
  "suit.S": { es: "picas", en: "spades", de: "Pik", sv: "spader" },
  "suit.H": { es: "corazones", en: "hearts", de: "Herz", sv: "hjärter" },
  "suit.D": { es: "diamantes", en: "diamonds", de: "Karo", sv: "ruter" },
  "suit.C": { es: "tréboles", en: "clubs", de: "Kreuz", sv: "klöver" },
  "colour.R": { es: "rojo", en: "red", de: "rot", sv: "röd" },
  "colour.B": { es: "negro", en: "black", de: "schwarz", sv: "svart" },
  close: { es: "Cerrar", en: "Close", de: "Schließen", sv: "Stäng" },
  trios: { es: "tríos", en: "tríos", de: "Tríos", sv: "tríos" },
  escala_n: { es: "escala de {n}", en: "escala of {n}", de: "{n}er-Escala", sv: "escala på {n}" },
  escalas_n: { es: "escalas de {n}", en: "escalas of {n}", de: "{n}er-Escalas", sv: "escalas på {n}" },
  sucia: { es: "escala sucia", en: "escala sucia", de: "Escala sucia", sv: "escala sucia" },
  real: { es: "escala real", en: "escala real", de: "Escala real", sv: "escala real" },
  colores: { es: "escala de colores", en: "escala de colores", de: "Escala de colores", sv: "escala de colores" },
  and: { es: "y", en: "and", de: "und", sv: "och" },
  or: { es: "o", en: "or", de: "oder", sv: "eller" },
  numbers: { es: "un,dos,tres,cuatro,cinco,seis", en: "one,two,three,four,five,six", de: "ein,zwei,drei,vier,fünf,sechs", sv: "en,två,tre,fyra,fem,sex" },
  numbers_f: { es: "una,dos,tres,cuatro,cinco,seis", en: "one,two,three,four,five,six", de: "eine,zwei,drei,vier,fünf,sechs", sv: "en,två,tre,fyra,fem,sex" },

  // ---------------------------------------------------------------- table
  lobby_you_start: { es: "Cuando estén todos sentados, toca Empezar", en: "Press Start once everyone is seated", de: "Drück auf Starten, sobald alle sitzen", sv: "Tryck på Starta när alla har satt sig" },
  game_broken: { es: "Esta partida no se pudo recuperar tras reiniciar el servidor. El anfitrión puede empezar una nueva", en: "This game could not be restored after the server restarted. The host can start a new one", de: "Dieses Spiel konnte nach dem Neustart des Servers nicht wiederhergestellt werden. Der Gastgeber kann ein neues starten", sv: "Partiet kunde inte återställas efter att servern startades om. Värden kan starta ett nytt" },
  lobby_wait: { es: "Esperando que el anfitrión empiece la partida", en: "Waiting for the host to start the game", de: "Warten, bis der Gastgeber das Spiel startet", sv: "Väntar på att värden startar partiet" },
  start: { es: "Empezar", en: "Start", de: "Starten", sv: "Starta" },
  rematch: { es: "Revancha", en: "Rematch", de: "Revanche", sv: "Returmatch" },
  stand_in: { es: "Que juegue un bot", en: "Let a bot play", de: "Einen Bot spielen lassen", sv: "Låt en bot spela" },
  stand_in_tag: { es: "juega un bot hasta que vuelva", en: "a bot plays until they are back", de: "ein Bot spielt bis zur Rückkehr", sv: "en bot spelar tills hen är tillbaka" },
  "err.connected": { es: "Esa persona está en la mesa", en: "That player is at the table", de: "Diese Person ist am Tisch", sv: "Den spelaren är vid bordet" },
  sit_here: { es: "Sentarme", en: "Take a seat", de: "Hinsetzen", sv: "Ta plats" },
  empty_seat: { es: "libre", en: "free", de: "frei", sv: "ledig" },
  connected: { es: "conectado", en: "connected", de: "verbunden", sv: "ansluten" },
  disconnected: { es: "desconectado", en: "away", de: "getrennt", sv: "frånkopplad" },
  spectator: { es: "Estás mirando: solo ves lo público", en: "You are watching: you see only what is public", de: "Du schaust zu: du siehst nur Öffentliches", sv: "Du tittar på: du ser bara det offentliga" },
  reconnecting: { es: "Reconectando…", en: "Reconnecting…", de: "Verbinde neu…", sv: "Återansluter…" },
  mazo: { es: "Mazo", en: "Mazo", de: "Mazo", sv: "Mazo" },
  mazo_from_pozo: { es: "al sacar, se baraja el pozo", en: "drawing reshuffles the pozo", de: "wer zieht, mischt den Pozo", sv: "den som drar blandar pozon" },
  pozo: { es: "Pozo", en: "Pozo", de: "Pozo", sv: "Pozo" },
  contract: { es: "Contrato", en: "Contract", de: "Kontrakt", sv: "Kontrakt" },
  still_lacks: { es: "Te falta", en: "Still to lay", de: "Es fehlt noch", sv: "Kvar att lägga" },
  contract_done: { es: "Contrato bajado", en: "Contract down", de: "Kontrakt ausgelegt", sv: "Kontraktet nere" },
  your_turn_draw: { es: "Tu turno: saca del mazo o del pozo", en: "Your turn: draw from the mazo or the pozo", de: "Du bist dran: zieh vom Mazo oder vom Pozo", sv: "Din tur: dra från mazon eller pozon" },
  your_turn_play: { es: "Bájate, agrega o bota una carta", en: "Bajarse, agregar, or discard a card", de: "Auslegen, anlegen oder eine Karte abwerfen", sv: "Lägg ner, lägg på eller kasta ett kort" },
  waiting_for: { es: "Juega {name}", en: "{name} to play", de: "{name} ist dran", sv: "{name} spelar" },
  sort_rank: { es: "Ordenar por número", en: "Sort by rank", de: "Nach Wert", sv: "Sortera efter valör" },
  sort_suit: { es: "Ordenar por pinta", en: "Sort by suit", de: "Nach Farbe", sv: "Sortera efter färg" },
  new_meld: { es: "Cerrar grupo", en: "New meld", de: "Neue Gruppe", sv: "Ny grupp" },
  clear_groups: { es: "Deshacer grupos", en: "Clear groups", de: "Gruppen auflösen", sv: "Rensa grupper" },
  bajarse: { es: "Bajarse", en: "Bajarse", de: "Auslegen (Bajarse)", sv: "Lägg ner (bajarse)" },
  discard: { es: "Botar", en: "Discard", de: "Abwerfen", sv: "Kasta" },
  undo: { es: "Deshacer", en: "Undo", de: "Rückgängig", sv: "Ångra" },
  hint: { es: "Pista", en: "Hint", de: "Tipp", sv: "Tips" },
  buy: { es: "Comprar", en: "Buy", de: "Kaufen", sv: "Köp" },
  pass: { es: "Pasar", en: "Pass", de: "Passen", sv: "Passa" },
  buy_offer: { es: "¿Compras el {card} del pozo?", en: "Buy the {card} from the pozo?", de: "{card} aus dem Pozo kaufen?", sv: "Köpa {card} från pozon?" },
  buy_card_price: { es: "Pagas con una carta más del mazo.", en: "You also take a penalty card from the mazo.", de: "Du nimmst eine Strafkarte vom Mazo dazu.", sv: "Du tar också ett straffkort från mazon." },
  buy_points_price: { es: "Cuesta {n} puntos de castigo.", en: "It costs {n} penalty points.", de: "Kostet {n} Strafpunkte.", sv: "Det kostar {n} straffpoäng." },
  buy_points_price_1: { es: "Cuesta 1 punto de castigo.", en: "It costs 1 penalty point.", de: "Kostet 1 Strafpunkt.", sv: "Det kostar 1 straffpoäng." },
  buy_claimed: { es: "Pediste el {card}. {name} saca primero y puede quedárselo", en: "You claimed the {card}. {name} draws first and may take it", de: "Du willst {card} kaufen. {name} zieht zuerst und darf die Karte nehmen", sv: "Du gjorde anspråk på {card}. {name} drar först och får ta det" },
  buy_won: { es: "Compraste el {card}", en: "You bought the {card}", de: "Du hast {card} gekauft", sv: "Du köpte {card}" },
  buy_lost: { es: "{name} compró el {card}: estaba antes en el turno", en: "{name} bought the {card}: they came first in turn order", de: "{name} hat {card} gekauft: war in der Reihenfolge zuerst dran", sv: "{name} köpte {card}: hen kom före i turordningen" },
  buy_taken: { es: "{name} sacó el {card} del pozo: era su turno", en: "{name} took the {card} from the pozo: it was their draw", de: "{name} hat {card} vom Pozo genommen: war mit Ziehen dran", sv: "{name} tog {card} från pozon: det var hens tur att dra" },
  timer_played: { es: "Se te acabó el tiempo: la mesa sacó del mazo y botó por ti", en: "Your time ran out: the table drew from the mazo and discarded for you", de: "Deine Zeit ist abgelaufen: der Tisch hat für dich vom Mazo gezogen und abgeworfen", sv: "Din tid tog slut: bordet drog från mazon och kastade åt dig" },
  timer_line: { es: "Si se acaba el tiempo, la mesa saca del mazo por ti y bota la carta que más vale de las que no te sirven.", en: "When the time runs out the table draws from the mazo for you and discards the highest card you do not need.", de: "Läuft die Zeit ab, zieht der Tisch für dich vom Mazo und wirft deine höchste Karte ab, die du nicht brauchst.", sv: "När tiden tar slut drar bordet från mazon åt dig och kastar ditt högsta kort som du inte behöver." },
  groups_hint: { es: "Elige cartas y toca «Cerrar grupo» por cada juego, en orden de menor a mayor para las escalas.", en: "Select cards and press “New meld” for each meld; put escalas low to high.", de: "Wähle Karten und drücke „Neue Gruppe“ für jede Kombination; Escalas von niedrig nach hoch.", sv: "Välj kort och tryck ”Ny grupp” för varje kombination; escalas från låg till hög." },
  suggestions: { es: "Puedes bajarte así", en: "You can bajarse like this", de: "So kannst du auslegen", sv: "Så kan du lägga ner" },
  use: { es: "Usar", en: "Use", de: "Übernehmen", sv: "Använd" },
  drop_here: { es: "suelta aquí", en: "drop here", de: "hier ablegen", sv: "släpp här" },
  low_end: { es: "abajo", en: "low", de: "unten", sv: "nedre änden" },
  high_end: { es: "arriba", en: "high", de: "oben", sv: "övre änden" },
  select_one: { es: "Elige una carta", en: "Select one card", de: "Wähle eine Karte", sv: "Välj ett kort" },
  which_end: { es: "¿En qué punta?", en: "Which end?", de: "An welches Ende?", sv: "Vilken ände?" },
  melds_on_table: { es: "Juegos en la mesa", en: "Melds on the table", de: "Kombinationen auf dem Tisch", sv: "Kombinationer på bordet" },
  no_melds: { es: "Nadie se ha bajado todavía", en: "Nobody is down yet", de: "Noch niemand hat ausgelegt", sv: "Ingen har lagt ner än" },
  down: { es: "bajado", en: "down", de: "ausgelegt", sv: "nere" },
  buys_1: { es: "1 compra", en: "1 buy", de: "1 Kauf", sv: "1 köp" },
  buys_n: { es: "{n} compras", en: "{n} buys", de: "{n} Käufe", sv: "{n} köp" },
  dealer: { es: "reparte", en: "deals", de: "gibt", sv: "ger" },
  hint_says: { es: "Pista", en: "Hint", de: "Tipp", sv: "Tips" },
  round_over: { es: "Fin de la ronda {n}", en: "End of round {n}", de: "Ende der Runde {n}", sv: "Slut på runda {n}" },
  went_out: { es: "{name} se fue", en: "{name} went out", de: "{name} ist ausgegangen", sv: "{name} gick ut" },
  nobody_out: { es: "Nadie se fue: todos cuentan su mano", en: "Nobody went out: everyone scores the hand", de: "Niemand ist ausgegangen: alle zählen ihre Hand", sv: "Ingen gick ut: alla räknar sin hand" },
  points: { es: "puntos", en: "points", de: "Punkte", sv: "poäng" },
  continue: { es: "Seguir", en: "Continue", de: "Weiter", sv: "Fortsätt" },
  score_sheet: { es: "Anotador", en: "Score sheet", de: "Punkteblatt", sv: "Protokoll" },
  total: { es: "Total", en: "Total", de: "Summe", sv: "Summa" },
  round: { es: "Ronda", en: "Round", de: "Runde", sv: "Runda" },
  winner: { es: "Gana {names}", en: "{names} wins", de: "{names} gewinnt", sv: "{names} vinner" },
  winners: { es: "Ganan {names}", en: "{names} win", de: "{names} gewinnen", sv: "{names} vinner" },
  game_over: { es: "Fin de la partida", en: "Game over", de: "Spielende", sv: "Partiet är slut" },
  download_record: { es: "Descargar la partida", en: "Download the record", de: "Partie herunterladen", sv: "Ladda ner partiet" },
  fair_deck: { es: "Barajado comprobable", en: "Provably fair deck", de: "Nachprüfbares Mischen", sv: "Kontrollerbar blandning" },
  seed_hash: { es: "Huella de la semilla de esta ronda", en: "Hash of this round's seed", de: "Hash des Seeds dieser Runde", sv: "Hash av rundans frö" },
  salt: { es: "sal", en: "salt", de: "Salz", sv: "salt" },
  seeds_revealed: { es: "Semillas reveladas", en: "Seeds revealed", de: "Aufgedeckte Seeds", sv: "Avslöjade frön" },
  log: { es: "Jugadas", en: "Moves", de: "Züge", sv: "Drag" },
  menu: { es: "Menú", en: "Menu", de: "Menü", sv: "Meny" },
  lobby: { es: "Inicio", en: "Home", de: "Start", sv: "Start" },
  table_not_found: { es: "No existe la mesa {code}", en: "There is no table {code}", de: "Tisch {code} gibt es nicht", sv: "Bordet {code} finns inte" },
  seat_taken: { es: "Esa mesa está llena o ya empezó: entras a mirar", en: "That table is full or has started: you are watching", de: "Der Tisch ist voll oder läuft schon: du schaust zu", sv: "Bordet är fullt eller har börjat: du tittar på" },
  invite_seat: { es: "Enlace para este asiento", en: "Link for this seat", de: "Link für diesen Platz", sv: "Länk för den här platsen" },
  set_bot: { es: "Poner bot", en: "Add bot", de: "Bot setzen", sv: "Lägg till bot" },
  remove_bot: { es: "Quitar bot", en: "Remove bot", de: "Bot entfernen", sv: "Ta bort bot" },
  game_n: { es: "Partida {n}", en: "Game {n}", de: "Spiel {n}", sv: "Parti {n}" },
  match_game_of: { es: "Partida {n} de {m}", en: "Game {n} of {m}", de: "Spiel {n} von {m}", sv: "Parti {n} av {m}" },
  match_tally: { es: "Partidas ganadas: {tally}", en: "Games won: {tally}", de: "Gewonnene Spiele: {tally}", sv: "Vunna partier: {tally}" },
  match_winner: { es: "Gana la serie: {names}", en: "Match won by {names}", de: "Gesamtsieg: {names}", sv: "Matchen vanns av {names}" },
  next_game: { es: "Siguiente partida", en: "Next game", de: "Nächstes Spiel", sv: "Nästa parti" },
  cards_in_hand: { es: "{n} cartas en la mano", en: "{n} cards in hand", de: "{n} Karten auf der Hand", sv: "{n} kort på handen" },
  cards_in_hand_1: { es: "1 carta en la mano", en: "1 card in hand", de: "1 Karte auf der Hand", sv: "1 kort på handen" },
  game_winner: { es: "Gana la partida: {names}", en: "Game won by {names}", de: "Spielsieg: {names}", sv: "Partiet vanns av {names}" },
  game_shared: { es: "Empate: ganan {names}", en: "A shared win: {names}", de: "Geteilter Sieg: {names}", sv: "Delad seger: {names}" },
  you_drew: { es: "Sacaste: {card}", en: "You drew the {card}", de: "Du hast {card} gezogen", sv: "Du drog {card}" },
  your_hand: { es: "Tu mano", en: "Your hand", de: "Deine Hand", sv: "Din hand" },
  hand_keys: { es: "Con el teclado: Tab pasa de carta en carta, Espacio o Enter elige una, Alt y las flechas la cambian de lugar.", en: "With the keyboard: Tab goes from card to card, Space or Enter selects one, Alt and the arrows move it.", de: "Mit der Tastatur: Tab geht von Karte zu Karte, Leertaste oder Enter wählt eine, Alt und die Pfeiltasten verschieben sie.", sv: "Med tangentbordet: Tab går från kort till kort, mellanslag eller Enter väljer ett, Alt och pilarna flyttar det." },
  pozo_top: { es: "arriba: {card}", en: "{card} on top", de: "oben {card}", sv: "överst {card}" },
  swap_here: { es: "Cambiar por el {card}", en: "Swap for the {card}", de: "Gegen {card} tauschen", sv: "Byt mot {card}" },
  agregar_or_swap: { es: "¿Qué haces con tu {card}?", en: "What do you do with the {card}?", de: "Was machst du mit {card}?", sv: "Vad gör du med {card}?" },
  do_agregar: { es: "Agregar", en: "Agregar (lay it off)", de: "Anlegen (agregar)", sv: "Lägg på (agregar)" },
  agregar_at: { es: "Agregar {end}", en: "Agregar at the {end} end", de: "{end} anlegen", sv: "Lägg på vid {end}" },
  do_swap: { es: "Cambiar por el comodín", en: "Swap it for the wild card", de: "Gegen den Joker tauschen", sv: "Byt mot jokern" },

  // log
  "log.draw.mazo": { es: "{name} saca del mazo", en: "{name} draws from the mazo", de: "{name} zieht vom Mazo", sv: "{name} drar från mazon" },
  "log.draw.pozo": { es: "{name} saca {card} del pozo", en: "{name} takes {card} from the pozo", de: "{name} nimmt {card} vom Pozo", sv: "{name} tar {card} från pozon" },
  "log.bajar": { es: "{name} se baja: {melds}", en: "{name} lays down: {melds}", de: "{name} legt aus: {melds}", sv: "{name} lägger ner: {melds}" },
  "log.agregar": { es: "{name} agrega {card} al juego {meld}", en: "{name} adds {card} to meld {meld}", de: "{name} legt {card} an Kombination {meld} an", sv: "{name} lägger {card} på kombination {meld}" },
  "log.swap": { es: "{name} cambia {card} por el comodín del juego {meld}", en: "{name} swaps {card} for the wild in meld {meld}", de: "{name} tauscht {card} gegen den Joker in Kombination {meld}", sv: "{name} byter {card} mot jokern i kombination {meld}" },
  "log.discard": { es: "{name} bota {card}", en: "{name} discards {card}", de: "{name} wirft {card} ab", sv: "{name} kastar {card}" },
  "log.buy": { es: "{name} compra {card} del pozo", en: "{name} buys {card} from the pozo", de: "{name} kauft {card} vom Pozo", sv: "{name} köper {card} från pozon" },

  // ---------------------------------------------------------------- replay
  replay_title: { es: "Ver una partida", en: "Replay a game", de: "Partie nachspielen", sv: "Spela upp ett parti" },
  replay_pick: { es: "Elige un archivo de partida (carioca-record/1)", en: "Choose a game record file (carioca-record/1)", de: "Wähle eine Partiedatei (carioca-record/1)", sv: "Välj en partifil (carioca-record/1)" },
  prev: { es: "Anterior", en: "Previous", de: "Zurück", sv: "Föregående" },
  next: { es: "Siguiente", en: "Next", de: "Weiter", sv: "Nästa" },
  step_label: { es: "Paso", en: "Step", de: "Schritt", sv: "Steg" },
  first_step: { es: "Primer paso", en: "First step", de: "Erster Schritt", sv: "Första steget" },
  last_step: { es: "Último paso", en: "Last step", de: "Letzter Schritt", sv: "Sista steget" },
  step_of: { es: "Paso {n} de {m}", en: "Step {n} of {m}", de: "Schritt {n} von {m}", sv: "Steg {n} av {m}" },
  replay_error: { es: "La partida se detiene en la ronda {round}, jugada {action}: {message}", en: "The record stops at round {round}, action {action}: {message}", de: "Die Partie bricht in Runde {round}, Zug {action} ab: {message}", sv: "Partiet stannar i runda {round}, drag {action}: {message}" },
  deal: { es: "Reparto", en: "Deal", de: "Austeilen", sv: "Giv" },
  not_a_record: { es: "Ese archivo no es una partida en JSON", en: "That file is not a JSON game record", de: "Diese Datei ist keine JSON-Partie", sv: "Filen är inte ett parti i JSON" },

  // ---------------------------------------------------------------- errors by code
  "err.stale_version": { es: "La mesa cambió antes de tu jugada: mira de nuevo y repite", en: "The table changed before your move: look again and retry", de: "Der Tisch hat sich vor deinem Zug geändert: schau nochmal", sv: "Bordet ändrades före ditt drag: titta igen" },
  "err.unknown_token": { es: "Tu enlace no es de esta mesa: estás mirando. Únete para sentarte", en: "Your seat pass is not one of this table's: you are watching. Join to sit down", de: "Dein Platzpass gehört nicht zu diesem Tisch: Du schaust zu. Tritt bei, um mitzuspielen", sv: "Ditt platskort hör inte till det här bordet: du tittar på. Gå med för att sätta dig" },
  "err.not_your_turn": { es: "No es tu turno", en: "It is not your turn", de: "Du bist nicht dran", sv: "Det är inte din tur" },
  "err.bad_message": { es: "La mesa no entendió el mensaje", en: "The table did not understand that message", de: "Der Tisch hat die Nachricht nicht verstanden", sv: "Bordet förstod inte meddelandet" },
  "err.draw_first": { es: "Primero saca una carta del mazo o del pozo", en: "First draw a card from the mazo or the pozo", de: "Zieh zuerst eine Karte vom Mazo oder Pozo", sv: "Dra först ett kort från mazon eller pozon" },
  "err.drawn_already": { es: "Ya sacaste: ahora bájate, agrega o bota", en: "You have drawn already: now bajarse, agregar or discard", de: "Du hast schon gezogen: jetzt auslegen, anlegen oder abwerfen", sv: "Du har redan dragit: lägg ner, lägg på eller kasta" },
  "err.not_the_contract": { es: "Eso no es el contrato de esta ronda", en: "That is not this round's contract", de: "Das ist nicht der Kontrakt dieser Runde", sv: "Det är inte rundans kontrakt" },
  "err.does_not_fit": { es: "Esa carta no va en ese juego", en: "That card does not fit that meld", de: "Die Karte passt nicht an diese Kombination", sv: "Kortet passar inte i kombinationen" },
  "err.cannot_agregar": { es: "Todavía no puedes agregar", en: "You cannot agregar yet", de: "Du darfst noch nicht anlegen", sv: "Du får inte lägga på än" },
  "err.cannot_swap": { es: "Todavía no puedes cambiar un comodín", en: "You cannot swap a wild yet", de: "Du darfst noch keinen Joker tauschen", sv: "Du får inte byta joker än" },
  "err.no_wild_for_card": { es: "Ningún comodín de ese juego está en lugar de esa carta", en: "No wild in that meld stands for that card", de: "Kein Joker in dieser Kombination steht für diese Karte", sv: "Ingen joker i kombinationen står för det kortet" },
  "err.must_go_out": { es: "En esta ronda hay que irse de una: quien se baja se queda sin cartas en el mismo turno", en: "In this round whoever bajarse must go out in the same turn", de: "In dieser Runde muss, wer auslegt, im selben Zug ausgehen", sv: "I den här rundan måste den som lägger ner gå ut samma tur" },
  "err.keep_one": { es: "Guarda una carta para botar", en: "Keep one card back to discard", de: "Behalte eine Karte zum Abwerfen", sv: "Spara ett kort att kasta" },
  "err.keep_cards": { es: "Una parte del contrato debe dejarte al menos dos cartas", en: "A part of the contract must leave you two cards", de: "Ein Teilkontrakt muss dir zwei Karten lassen", sv: "En del av kontraktet måste lämna två kort" },
  "err.cannot_go_out": { es: "No puedes irte sin haber bajado todo el contrato", en: "You cannot go out before the whole contract is down", de: "Ausgehen erst mit dem ganzen Kontrakt", sv: "Du kan inte gå ut innan hela kontraktet är nere" },
  "err.cannot_buy": { es: "No puedes comprar ahora", en: "You cannot buy now", de: "Du kannst jetzt nicht kaufen", sv: "Du kan inte köpa nu" },
  "err.already_down": { es: "Ya te bajaste: ahora agrega", en: "You are down already: now agregar", de: "Du hast schon ausgelegt: jetzt anlegen", sv: "Du har redan lagt ner: lägg på" },
  "err.card_not_in_hand": { es: "No tienes esa carta", en: "You do not hold that card", de: "Diese Karte hast du nicht", sv: "Du har inte det kortet" },
  "err.nothing_to_undo": { es: "No hay nada que deshacer en este turno", en: "There is nothing to undo in this turn", de: "In diesem Zug gibt es nichts zurückzunehmen", sv: "Det finns inget att ångra" },
  "err.undo_off": { es: "Esta mesa no permite deshacer", en: "This table does not allow undo", de: "Dieser Tisch erlaubt kein Rückgängig", sv: "Bordet tillåter inte ångra" },
  "err.swap_off": { es: "Esta mesa no permite cambiar comodines", en: "This table does not allow swapping wilds", de: "Dieser Tisch erlaubt keinen Jokertausch", sv: "Bordet tillåter inte jokerbyten" },
  "err.cannot_relocate": { es: "El comodín no puede ir a esa punta", en: "The wild cannot move to that end", de: "Der Joker kann nicht an dieses Ende", sv: "Jokern kan inte flyttas dit" },
  "err.no_such_meld": { es: "Ese juego no existe", en: "There is no such meld", de: "Diese Kombination gibt es nicht", sv: "Den kombinationen finns inte" },
  "err.game_over": { es: "La partida terminó", en: "The game is over", de: "Das Spiel ist vorbei", sv: "Partiet är slut" },
  "err.round_over": { es: "La ronda terminó", en: "The round is over", de: "Die Runde ist vorbei", sv: "Rundan är slut" },
  "err.hints_off": { es: "Esta mesa no da pistas", en: "This table gives no hints", de: "Dieser Tisch gibt keine Tipps", sv: "Bordet ger inga tips" },
  "err.no_hints": { es: "El anfitrión apagó las pistas", en: "The host turned hints off", de: "Der Gastgeber hat Tipps abgeschaltet", sv: "Värden har stängt av tips" },
  "hint.stale_version": { es: "La mesa cambió mientras el entrenador pensaba: pide la pista de nuevo", en: "The table moved while the coach thought: ask for the hint again", de: "Der Tisch hat sich geändert, während der Trainer nachdachte: frag nochmal nach dem Tipp", sv: "Bordet ändrades medan tränaren tänkte: be om tipset igen" },
  "hint.no_coach": { es: "El entrenador no pudo dar una pista ahora", en: "The coach could not give a hint just now", de: "Der Trainer konnte gerade keinen Tipp geben", sv: "Tränaren kunde inte ge något tips just nu" },
  "err.no_coach": { es: "El entrenador no está instalado en este servidor", en: "The coach is not installed on this server", de: "Der Trainer ist auf diesem Server nicht installiert", sv: "Tränaren är inte installerad på servern" },
  "err.spectator": { es: "Estás mirando: siéntate para jugar", en: "You are watching: take a seat to play", de: "Du schaust zu: setz dich, um zu spielen", sv: "Du tittar på: sätt dig för att spela" },
  "err.not_your_seat": { es: "Solo puedes jugar por tu asiento", en: "You can only play for your own seat", de: "Du spielst nur für deinen Platz", sv: "Du spelar bara för din plats" },
  "err.too_late": { es: "Se acabó el tiempo para comprar esa carta", en: "The time to buy that card is over", de: "Die Zeit, diese Karte zu kaufen, ist vorbei", sv: "Tiden att köpa det kortet är ute" },
  "err.pozo_empty": { es: "El pozo está vacío: saca del mazo", en: "The pozo is empty: draw from the mazo", de: "Der Pozo ist leer: zieh vom Mazo", sv: "Pozon är tom: dra från mazon" },
  "err.mazo_empty": { es: "El mazo está vacío", en: "The mazo is empty", de: "Der Mazo ist leer", sv: "Mazon är tom" },
  "err.bad_seat": { es: "Ese asiento no existe o no puede tener un bot", en: "That seat does not exist or cannot take a bot", de: "Diesen Platz gibt es nicht, oder er kann keinen Bot haben", sv: "Den platsen finns inte eller kan inte ha en bot" },
  "err.no_such_seat": { es: "Ese asiento no existe", en: "That seat does not exist", de: "Diesen Platz gibt es nicht", sv: "Den platsen finns inte" },
  "err.bad_bot": { es: "No conocemos ese bot", en: "There is no such bot", de: "Diesen Bot gibt es nicht", sv: "Den boten finns inte" },
  "err.bad_bots": { es: "No conocemos ese bot", en: "There is no such bot", de: "Diesen Bot gibt es nicht", sv: "Den boten finns inte" },
  "err.bad_timer": { es: "Ese tiempo no se puede elegir", en: "That timer cannot be chosen", de: "Diese Zeit kann man nicht wählen", sv: "Den tiden går inte att välja" },
  "err.bad_match": { es: "Se juega una partida, o al mejor de 3 o de 5", en: "A table plays one game, or the best of 3 or of 5", de: "Ein Tisch spielt ein Spiel oder Best of 3 oder 5", sv: "Ett bord spelar ett parti, eller bäst av 3 eller 5" },
  "err.too_big": { es: "El mensaje es demasiado largo", en: "The message is too long", de: "Die Nachricht ist zu lang", sv: "Meddelandet är för långt" },
  "err.bad_request": { es: "La mesa no entendió ese pedido", en: "The table did not understand that request", de: "Der Tisch hat diese Anfrage nicht verstanden", sv: "Bordet förstod inte den begäran" },
  "err.unknown_action": { es: "Esa jugada no existe", en: "There is no such move", de: "Diesen Zug gibt es nicht", sv: "Det draget finns inte" },
  "err.no_window": { es: "No hay carta para comprar ahora", en: "There is no card to buy now", de: "Jetzt gibt es keine Karte zu kaufen", sv: "Det finns inget kort att köpa nu" },
  "err.answered": { es: "Ya respondiste", en: "You have answered already", de: "Du hast schon geantwortet", sv: "Du har redan svarat" },
  "err.not_playing": { es: "No se está jugando en esta mesa", en: "No game is being played here", de: "An diesem Tisch läuft kein Spiel", sv: "Inget parti pågår vid bordet" },
  "err.bad_action": { es: "Esa jugada no se entiende", en: "That move is not understood", de: "Dieser Zug ist unverständlich", sv: "Draget förstås inte" },
  "err.started": { es: "La partida ya empezó", en: "The game has started", de: "Das Spiel läuft schon", sv: "Partiet har börjat" },
  "err.full": { es: "La mesa está llena", en: "The table is full", de: "Der Tisch ist voll", sv: "Bordet är fullt" },
  "err.seat_taken": { es: "Ese asiento está ocupado", en: "That seat is taken", de: "Der Platz ist besetzt", sv: "Platsen är upptagen" },
  "err.not_host": { es: "Solo el anfitrión puede hacerlo", en: "Only the host may do that", de: "Nur der Gastgeber darf das", sv: "Bara värden får göra det" },
  "err.empty_seats": { es: "Cada asiento necesita una persona o un bot", en: "Every seat needs a player or a bot", de: "Jeder Platz braucht einen Spieler oder Bot", sv: "Varje plats behöver en spelare eller bot" },
  "err.bad_rules": { es: "Esas reglas no se pueden jugar", en: "Those rules cannot be played", de: "Diese Regeln sind nicht spielbar", sv: "De reglerna går inte att spela" },
  "err.bad_options": { es: "Los cambios de reglas del enlace no se entienden", en: "The rule changes in the link are not understood", de: "Die Regeländerungen im Link sind unverständlich", sv: "Regeländringarna i länken går inte att förstå" },
  "err.moved": { es: "La mesa se cambió de servidor: reconectando", en: "The table moved to another server: reconnecting", de: "Der Tisch ist auf einen anderen Server umgezogen: neu verbinden", sv: "Bordet flyttade till en annan server: ansluter igen" },
  "err.elsewhere": { es: "Esa mesa se juega en otro servidor", en: "That table is played on another server", de: "Dieser Tisch wird auf einem anderen Server gespielt", sv: "Det bordet spelas på en annan server" },
  "err.unavailable": { es: "No se puede llegar a las mesas en este momento: prueba de nuevo en un rato", en: "The tables cannot be reached just now: try again in a moment", de: "Die Tische sind gerade nicht erreichbar: versuch es gleich noch einmal", sv: "Borden går inte att nå just nu: försök igen om en stund" },
  "err.internal": { es: "Algo falló en el servidor", en: "Something went wrong on the server", de: "Auf dem Server ist etwas schiefgegangen", sv: "Något gick fel på servern" },
  "err.no_table": { es: "Esa mesa no existe", en: "There is no such table", de: "Diesen Tisch gibt es nicht", sv: "Bordet finns inte" },
  "err.too_many_tables": { es: "Demasiadas mesas nuevas desde esta dirección: espera unos minutos", en: "Too many new tables from this address: wait a few minutes", de: "Zu viele neue Tische von dieser Adresse: warte ein paar Minuten", sv: "För många nya bord från den här adressen: vänta några minuter" },
  "err.too_many_tries": { es: "Demasiados códigos que no son de ninguna mesa: espera un minuto y revisa el código", en: "Too many codes that name no table: wait a minute and check the code", de: "Zu viele Codes ohne Tisch: warte eine Minute und prüfe den Code", sv: "För många koder utan bord: vänta en minut och kontrollera koden" },
  "err.not_over": { es: "La partida se descarga cuando termina", en: "The record is ready once the game is over", de: "Die Partie lässt sich erst nach Spielende herunterladen", sv: "Partiet kan laddas ner när det är slut" },
  "err.bad_json": { es: "Ese archivo no es JSON", en: "That file is not JSON", de: "Die Datei ist kein JSON", sv: "Filen är inte JSON" },
  "err.bad_record": { es: "Ese archivo no es una partida", en: "That file is not a game record", de: "Die Datei ist keine Partie", sv: "Filen är inget parti" },
  "err.network": { es: "Sin conexión con la mesa", en: "No connection to the table", de: "Keine Verbindung zum Tisch", sv: "Ingen anslutning till bordet" },
  "err.generic": { es: "No se pudo", en: "That did not work", de: "Das ging nicht", sv: "Det gick inte" },
};

function detectLang() {
  const saved = localStorage.getItem(KEY);
  if (saved && LANGS[saved]) return saved;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  const two = nav.slice(0, 2).toLowerCase();
  if (two === "es") return "es";
  if (two === "de") return "de";
  if (two === "sv") return "sv";
  return "en";
}

let lang = detectLang();
const listeners = new Set();

export function getLang() { return lang; }

export function setLang(value) {
  if (!LANGS[value]) return;
  lang = value;
  localStorage.setItem(KEY, value);
  document.documentElement.lang = value;
  applyI18n(document);
  for (const fn of listeners) fn(value);
}

export function onLangChange(fn) { listeners.add(fn); }

export function has(key) { return key in W; }

/** The words for ``key`` in the current language, with {name} filled from ``params``. */
export function t(key, params = {}) {
  const entry = W[key];
  const text = entry ? (entry[lang] ?? entry.en) : key;
  // One pass over the template: a value (a player's name) is never read as a placeholder.
  return text.replace(/\{(\w+)\}/g, (all, k) => (Object.hasOwn(params, k) ? String(params[k]) : all));
}

/** A text the server gives in every language ({es, en, de, sv}) in the page's language. */
export function localized(obj) {
  if (!obj) return "";
  if (typeof obj === "string") return obj;
  return obj[lang] || obj.en || obj.es || "";
}

/** Names as a sentence says them: "Ana", "Ana y Beto", "Ana, Beto y Carla". */
export function nameList(names) {
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(", ") + " " + t("and") + " " + names[names.length - 1];
}

/** Fill every element with data-i18n (text) or data-i18n-attr="attr:key;attr:key". */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      el.setAttribute(attr, t(key));
    }
  }
}

/** A contract in words from its notation: "2T+1E", "1T+2E3", "ES", "4T|4E". */
export function contractWords(notation) {
  if (!notation) return "";
  return String(notation).split("|").map((alt) => oneContract(alt.trim().replace(/!$/, "")))
    .join(" " + t("or") + " ");
}

function oneContract(text) {
  const nums = t("numbers").split(",");
  const parts = [];
  for (const raw of text.toUpperCase().split("+")) {
    const m = raw.match(/^(\d*)(T|ES|ER|EC|E)(\d*)$/);
    if (!m) { parts.push(raw); continue; }
    const n = m[1] ? parseInt(m[1], 10) : 1;
    const fem = m[2] !== "T";
    const list = fem ? t("numbers_f").split(",") : nums;
    const num = n <= list.length ? list[n - 1] : String(n);
    if (m[2] === "T") parts.push(`${num} ${t(n > 1 ? "trios" : "trio")}`);
    else if (m[2] === "E") {
      const len = m[3] ? parseInt(m[3], 10) : 4;
      parts.push(`${num} ${t(n > 1 ? "escalas_n" : "escala_n", { n: len })}`);
    } else {
      const name = t({ ES: "sucia", ER: "real", EC: "colores" }[m[2]]);
      parts.push(n > 1 ? `${num} × ${name}` : name);
    }
  }
  if (parts.length === 1) return parts[0];
  return parts.slice(0, -1).join(", ") + " " + t("and") + " " + parts[parts.length - 1];
}

document.documentElement.lang = lang;
