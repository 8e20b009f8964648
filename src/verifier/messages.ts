/**
 * The verifier page's own words, in one place: a translation is one more object of the same shape.
 * English (`en`) is the source: the build writes it into the HTML (`data-i18n` elements), and the page
 * switches to another language when the link says `?lang=fr` or, without one, when the browser's
 * preferred language is one shipped here. Text that comes from the core (the verdict's headline and
 * facts, each check's detail, the failure reason) stays in English: it is the CLI's wording, and the
 * French page says so.
 *
 * Pure: no DOM.
 *
 * @module
 */

/** The page's static text, by `data-i18n` key. */
export interface PageText {
  readonly title: string
  readonly sub: string
  readonly lede: string
  readonly loadH: string
  readonly dropMain: string
  readonly or: string
  readonly choose: string
  readonly proofHint: string
  readonly pasteSummary: string
  readonly pasteLabel: string
  readonly verifyPaste: string
  readonly trustSummary: string
  readonly trustHint: string
  readonly beaconsLabel: string
  readonly allowUnsigned: string
  readonly allowUntimestamped: string
  readonly tsaLabel: string
  readonly tsaFile: string
  readonly drandLabel: string
  readonly pinLabel: string
  readonly apply: string
  readonly cancel: string
  readonly footVerifier: string
  readonly footNote: string
  readonly footLink: string
  /** Said on a page whose language is not English; empty in English. */
  readonly coreInEnglish: string
}

/** Every text of the page that a translation must give. */
export interface Messages {
  readonly lang: string
  readonly languageName: string
  /**
   * The static page text in this language; absent for English, whose words the build writes into the
   * HTML from {@link enPage} (so the page's script does not carry them twice).
   */
  readonly page?: PageText
  /** Verdict titles, by the core's English title. */
  readonly titles: Readonly<Record<string, string>>
  readonly summary: { readonly draw: string; readonly kind: string; readonly participants: string; readonly target: string; readonly beacon: string; readonly proof: string; readonly noLabel: string }
  readonly commitment: {
    readonly title: string
    readonly headline: string
    readonly compare: (cid: string, target: string) => string
    readonly pin: string
    readonly cid: string
    readonly seenAtCommit: string
    readonly timestamps: string
    readonly noTimestamps: string
    readonly claimed: string
    readonly unreadable: string
    readonly blocksLater: (n: string) => string
    readonly block: (n: string) => string
  }
  /** "local time" beside a UTC time. */
  readonly localTime: string
  readonly couldNotLoad: string
}

/** The English page text: the build writes it into the HTML (`data-i18n` elements). */
export const enPage: PageText = {
  title: 'orbitdraw — proof verifier',
  sub: 'proof verifier',
  lede: 'Check a draw made from the cosmic randomness beacon. Everything runs in this page, offline: the proof file never leaves your computer.',
  loadH: 'Load a proof',
  dropMain: 'Drop a proof file here',
  or: 'or',
  choose: 'choose a file…',
  proofHint: 'A proof is one JSON file (proof.json) made by orbitdraw draw.',
  pasteSummary: '…or paste the proof JSON',
  pasteLabel: 'Proof JSON',
  verifyPaste: 'Verify pasted proof',
  trustSummary: 'Advanced: trust settings',
  trustHint: "By default this page trusts only Orbitport's beacons, requires the beacon's signed record and a time-stamp, and shows Verified only then. Anything you change here (or a link sets) is named in the verdict, which is then never the plain green one.",
  beaconsLabel: 'Also trust these beacons (IPNS names, one per line)',
  allowUnsigned: 'Accept unsigned blocks (integrity only)',
  allowUntimestamped: 'Accept a commitment without a time-stamp',
  tsaLabel: 'Also trust these time-stamping root certificates (PEM; never taken from a link)',
  tsaFile: '…or load a PEM file',
  drandLabel: "Also trust this drand chain (paste its info JSON exactly as drand's /info serves it; never taken from a link). By default only drand's quicknet is trusted",
  pinLabel: 'Pin the commitment CID the organizer announced (a proof of any other commitment fails)',
  apply: 'Apply and re-verify',
  cancel: 'Cancel',
  footVerifier: 'verifier',
  footNote: 'runs the same verify() as the Node library · no server, no tracking, no external resources.',
  footLink: 'Link a proof with ?proof=<url> (the host must allow CORS); trust settings in a link (trust-beacon, allow-unsigned, allow-untimestamped, commitment) are always named in the verdict.',
  coreInEnglish: '',
}

export const en: Messages = {
  lang: 'en',
  languageName: 'English',
  titles: {},
  summary: { draw: 'Draw', kind: 'Kind', participants: 'Participants', target: 'Target block', beacon: 'Beacon', proof: 'Proof', noLabel: '(no label)' },
  commitment: {
    title: 'This is a commitment, not a proof',
    headline: 'A commitment fixes a draw before its randomness exists: the list, what is drawn and the future beacon block that decides it. It cannot show who won; the proof, written after that block, does. Nothing here is verified.',
    compare: (cid, target) => `Compare the CID ${cid} with the one the organizer announced before block ${target}.`,
    pin: 'Then pin it (trust settings) and load the proof once it is published: a proof of any other commitment will fail.',
    cid: 'Commitment CID',
    seenAtCommit: 'Seen at commit',
    timestamps: 'Time-stamps',
    noTimestamps: 'none carried',
    claimed: '(claimed, not checked)',
    unreadable: 'unreadable token',
    blocksLater: (n) => `${n} blocks later`,
    block: (n) => `block ${n}`,
  },
  localTime: 'your local time',
  couldNotLoad: 'Could not load the proof',
}

const frPage: PageText = {
  title: 'orbitdraw — vérificateur de preuves',
  sub: 'vérificateur de preuves',
  lede: 'Vérifiez un tirage fait avec la balise d’aléa cosmique. Tout se passe dans cette page, hors ligne : le fichier de preuve ne quitte jamais votre ordinateur.',
  loadH: 'Charger une preuve',
  dropMain: 'Déposez un fichier de preuve ici',
  or: 'ou',
  choose: 'choisissez un fichier…',
  proofHint: 'Une preuve est un fichier JSON (proof.json) produit par orbitdraw draw.',
  pasteSummary: '…ou collez le JSON de la preuve',
  pasteLabel: 'JSON de la preuve',
  verifyPaste: 'Vérifier la preuve collée',
  trustSummary: 'Avancé : paramètres de confiance',
  trustHint: 'Par défaut, cette page ne fait confiance qu’aux balises d’Orbitport, exige l’enregistrement signé de la balise et un horodatage, et n’affiche « Vérifié » qu’à ces conditions. Tout ce que vous changez ici (ou qu’un lien règle) est nommé dans le verdict, qui n’est alors jamais le vert simple.',
  beaconsLabel: 'Faire aussi confiance à ces balises (noms IPNS, un par ligne)',
  allowUnsigned: 'Accepter des blocs non signés (intégrité seulement)',
  allowUntimestamped: 'Accepter un engagement sans horodatage',
  tsaLabel: 'Faire aussi confiance à ces certificats racines d’horodatage (PEM ; jamais pris d’un lien)',
  tsaFile: '…ou charger un fichier PEM',
  drandLabel: 'Faire aussi confiance à cette chaîne drand (collez son JSON d’information tel que le sert son /info ; jamais pris d’un lien). Par défaut, seule la chaîne quicknet de drand est de confiance',
  pinLabel: 'Épingler le CID d’engagement annoncé par l’organisateur (la preuve de tout autre engagement échoue)',
  apply: 'Appliquer et revérifier',
  cancel: 'Annuler',
  footVerifier: 'vérificateur',
  footNote: 'exécute la même fonction verify() que la bibliothèque Node · aucun serveur, aucun pistage, aucune ressource externe.',
  footLink: 'Liez une preuve avec ?proof=<url> (l’hébergeur doit autoriser CORS) ; les paramètres de confiance d’un lien (trust-beacon, allow-unsigned, allow-untimestamped, commitment) sont toujours nommés dans le verdict.',
  coreInEnglish: 'Le détail du verdict, les vérifications et les raisons d’échec restent en anglais (comme dans l’outil en ligne de commande).',
}

export const fr: Messages = {
  lang: 'fr',
  languageName: 'Français',
  page: frPage,
  titles: {
    Verified: 'Vérifié',
    'Verified under custom trust settings': 'Vérifié avec des paramètres de confiance personnalisés',
    'Not fully verified': 'Pas entièrement vérifié',
    Failed: 'Échec',
    'Not a readable proof': 'Pas une preuve lisible',
    'Not verified here': 'Non vérifié ici',
    'You were in the draw': 'Vous faisiez partie du tirage',
    'This receipt does not check out': 'Ce reçu n’est pas valable',
    'In the committed list — now compare the CID': 'Dans la liste engagée — comparez maintenant le CID',
  },
  summary: { draw: 'Tirage', kind: 'Type', participants: 'Participants', target: 'Bloc cible', beacon: 'Balise', proof: 'Preuve', noLabel: '(sans titre)' },
  commitment: {
    title: 'Ceci est un engagement, pas une preuve',
    headline: 'Un engagement fixe un tirage avant que son aléa n’existe : la liste, ce qui est tiré et le futur bloc de la balise qui en décide. Il ne peut pas montrer qui a gagné ; la preuve, écrite après ce bloc, le peut. Rien n’est vérifié ici.',
    compare: (cid, target) => `Comparez le CID ${cid} avec celui que l’organisateur a annoncé avant le bloc ${target}.`,
    pin: 'Puis épinglez-le (paramètres de confiance) et chargez la preuve une fois publiée : la preuve de tout autre engagement échouera.',
    cid: 'CID de l’engagement',
    seenAtCommit: 'Vu à l’engagement',
    timestamps: 'Horodatages',
    noTimestamps: 'aucun',
    claimed: '(annoncé, non vérifié)',
    unreadable: 'jeton illisible',
    blocksLater: (n) => `${n} blocs plus tard`,
    block: (n) => `bloc ${n}`,
  },
  localTime: 'votre heure locale',
  couldNotLoad: 'Impossible de charger la preuve',
}

/** The languages shipped, by primary language subtag. */
export const LANGUAGES: Readonly<Record<string, Messages>> = { en, fr }

/**
 * The page's language: `?lang=` when it names a shipped language, else the first of the browser's
 * preferred languages that is shipped (by primary subtag: `fr-CA` is French), else English.
 */
export function pickLanguage(query: string | null, preferred: readonly string[]): Messages {
  const of = (tag: string | null | undefined): Messages | undefined => (tag == null ? undefined : LANGUAGES[tag.toLowerCase().split('-')[0] ?? ''])
  return of(query) ?? preferred.map(of).find((m) => m !== undefined) ?? en
}
