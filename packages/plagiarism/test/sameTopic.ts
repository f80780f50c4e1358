/**
 * A family of short essays written for these tests to one prompt (a school phone policy): every essay uses the
 * prompt's words (phones, students, school, class, policy, parents, lunch, teachers) in its own sentences, and
 * each has words of its own. Deterministic.
 */
const FRAMES = [
  (a: string, b: string) => `Students should keep their phones in a locker during class, since ${a} matters more than ${b}.`,
  (a: string, b: string) => `A school policy on phones helps teachers, because ${a} and ${b} stay out of the classroom.`,
  (a: string, b: string) => `Parents want to reach students at lunch, so the policy should allow phones for ${a} or ${b}.`,
  (a: string, b: string) => `Many teachers say phones distract students in class when ${a} replaces ${b}.`,
  (a: string, b: string) => `During lunch students could use phones to call parents about ${a} and ${b}.`,
  (a: string, b: string) => `The policy of the school should treat phones as tools for ${a}, not for ${b}.`,
  (a: string, b: string) => `Without phones in class, students would talk with teachers about ${a} and ${b}.`,
  (a: string, b: string) => `Some parents think school phones policy is strict about ${a} but loose about ${b}.`,
];

const OWN_WORDS = [
  'gardening', 'chess', 'volunteering', 'swimming', 'painting', 'robotics', 'poetry', 'baking', 'hiking', 'theatre',
  'astronomy', 'knitting', 'cycling', 'pottery', 'debating', 'fishing', 'archery', 'origami', 'sailing', 'juggling',
  'sculpture', 'rowing', 'ballet', 'carpentry', 'falconry', 'calligraphy', 'beekeeping', 'photography', 'birdwatching',
  'climbing', 'fencing', 'surfing', 'skating', 'drumming', 'quilting', 'embroidery', 'woodcarving', 'geocaching',
  'orienteering', 'kayaking', 'snorkeling', 'taxidermy', 'bookbinding', 'glassblowing', 'metalwork', 'weaving',
  'gymnastics', 'wrestling', 'canoeing', 'mountaineering', 'composting', 'stargazing', 'fossils', 'minerals',
];

function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` essays of 6 sentences, each from the frames in its own order with its own hobby words. */
export function phonePolicyEssays(count: number, seed = 7): string[] {
  const rng = mulberry32(seed);
  const pick = (): string => OWN_WORDS[Math.floor(rng() * OWN_WORDS.length)]!;
  return Array.from({ length: count }, () => {
    const frames = FRAMES.map((f) => [rng(), f] as const).sort((x, y) => x[0] - y[0]).slice(0, 6).map(([, f]) => f);
    return frames.map((f) => f(pick(), pick())).join(' ');
  });
}
