/** Word lists the feature extractors look for; each is lower-case. */
export const NEGATIONS: ReadonlySet<string> = new Set([
  'not', "n't", 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', "can't", "don't", "doesn't",
  "didn't", "isn't", "aren't", "wasn't", "weren't", "won't", "hasn't", "haven't", "hadn't", 'without', 'nowhere',
  'fails', 'failed', 'lack', 'lacks', 'false', 'untrue', 'deny', 'denied', 'refuted',
]);

export const MONTHS: ReadonlySet<string> = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday'.split(' '),
);

export const COMPARATIVES: ReadonlySet<string> = new Set(
  'more less fewer higher lower larger smaller bigger greater than most least largest smallest biggest highest lowest fastest slowest best worst increase increased increases decrease decreased decreases rise rose risen fall fell fallen grew grown doubled tripled halved record'.split(' '),
);

export const CAUSALS: ReadonlySet<string> = new Set(
  'because cause caused causes causing due lead leads led result results resulted effect effects therefore thus consequently responsible contributes contributed linked'.split(' '),
);

export const HEDGES: ReadonlySet<string> = new Set(
  'maybe perhaps might possibly probably likely unlikely seems seem seemed appears appear suppose guess think believe feel hope wish wonder could would may suggest suggests apparently allegedly'.split(' '),
);

export const OPINIONS: ReadonlySet<string> = new Set(
  'great terrible wonderful beautiful amazing awful horrible fantastic disgusting love hate like nice bad good stupid smart brilliant ridiculous incredible tremendous disaster disgrace sad happy proud shame shameful should must ought deserve deserves important'.split(' '),
);

export const FIRST_PERSON: ReadonlySet<string> = new Set('i me my mine we us our ours myself ourselves'.split(' '));

export const QUESTION_OPENERS: ReadonlySet<string> = new Set(
  'who what when where why how which whom whose is are was were do does did can could will would should shall has have had'.split(' '),
);

export const STATISTIC_CUES: ReadonlySet<string> = new Set(
  'percent percentage per cent million billion trillion thousand hundred average rate rates data study studies survey report reported according statistics census population gdp budget tax taxes jobs unemployment deficit debt'.split(' '),
);

export const QUANTIFIERS: ReadonlySet<string> = new Set('all every each some any only always sometimes many few most several both'.split(' '));
