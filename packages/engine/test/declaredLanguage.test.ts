import { describe, expect, it } from 'vitest';
import { contradictedLanguage } from '../src/index.js';
import { meteredEngine, rejection } from './helpers.js';

// Texts written for these tests.
const ENGLISH =
  'My grandmother kept bees behind the shed for almost forty years, and every August the whole house smelled of ' +
  'wax. She never wore gloves. When I asked her why, she said the bees knew her hands better than she did, which ' +
  'made no sense to me at nine and makes only a little more sense now. The honey was dark, almost bitter some years.';
const FRENCH =
  'Ma grand-mère a gardé des abeilles derrière la remise pendant près de quarante ans, et chaque mois d\'août toute ' +
  'la maison sentait la cire. Elle ne portait jamais de gants. Quand je lui demandais pourquoi, elle disait que les ' +
  'abeilles connaissaient ses mains mieux qu\'elle-même, ce qui n\'avait aucun sens pour moi à neuf ans.';
const CHINESE =
  '我的祖母在棚子后面养了将近四十年的蜜蜂，每年八月整个房子都弥漫着蜂蜡的味道。她从来不戴手套。当我问她为什么时，' +
  '她说蜜蜂比她自己更了解她的手。这句话在我九岁的时候毫无意义，现在也只多了一点点意义。那些年的蜂蜜颜色很深，' +
  '有时候甚至有点苦，她把蜂蜜放在小路尽头的一张折叠桌上出售，用一个咖啡罐收钱。邻居们都说那是镇上最好的蜂蜜，' +
  '可是她从来不肯告诉别人蜂箱到底放在哪里。冬天的时候，她会用旧毯子把蜂箱包起来，每天早上去听里面的嗡嗡声。' +
  '她说只要还能听见声音，春天就一定会来。后来她搬进了城里的公寓，再也没有养过蜜蜂，但她的厨房窗台上总是放着一小罐蜂蜜。' +
  '每当有人来看她，她都会舀一勺给客人尝，然后讲起那些蜜蜂的故事，好像它们还在棚子后面嗡嗡地飞来飞去。我现在也开始养蜜蜂了，' +
  '虽然我还是戴着手套，而且每次被蜇都会想起她的笑声。';
const LINE_UP =
  'Rovers: Grant 8; Dummett 2, Bennett, Harwood, Olsson (McFadden, 73), Mee 5, Williams (Wade, 73), Olsen, Kerr, ' +
  'Barrow, Lund. Subs not used: Pryce, Dale, Osei. Athletic: Moreno; Silva 4, Costa, Pereira (Lopes, 60), Martins, ' +
  'Ferreira 7, Rocha, Alves, Teixeira (Gomes, 81), Ribeiro, Carvalho. Subs not used: Nunes, Pinto, Barros, Sousa.';

describe('contradictedLanguage', () => {
  it('finds a text confidently in another language than declared, and names it', () => {
    expect(contradictedLanguage(FRENCH, 'en')).toBe('fr');
    expect(contradictedLanguage(CHINESE, 'en')).toBe('zh');
  });

  it('lets through the declared language, a list of names and a text half in the declared language', () => {
    expect(contradictedLanguage(ENGLISH, 'en')).toBeUndefined();
    expect(contradictedLanguage(LINE_UP, 'en')).toBeUndefined();
    expect(contradictedLanguage(`${FRENCH}\n\nTranslation: ${ENGLISH}`, 'en')).toBeUndefined();
  });
});

describe('ai-content-detection: a declared language the text is not in', () => {
  for (const [name, text, found] of [['French', FRENCH, 'French (fr)'], ['Chinese', CHINESE, 'Chinese (zh), which is not supported']] as const) {
    it(`refuses a ${name} text sent as English with 400, naming ${found.split(',')[0]}, and charges nothing`, async () => {
      const { engine, ledger, accountId, token } = await meteredEngine({ analysis: { mode: 'thread' } });
      const error = await rejection(engine.execute('ai-content-detection', { text, language: 'en' }, { token }));
      expect(error.toBody()).toEqual({
        status: 400, error: 'BAD_REQUEST',
        description: `The request sent language English (en), but the text is in ${found} (supported: English (en), French (fr), German (de), Spanish (es), or auto)`,
      });
      expect((error.cause as { code?: string }).code).toBe('LANGUAGE_MISMATCH');
      expect(await ledger.balance(accountId)).toBe(2000);
    });
  }

  it('scores an English text sent as English, and a bilingual one', async () => {
    const { engine, token } = await meteredEngine({ analysis: { mode: 'thread' } });
    const { result } = await engine.execute('ai-content-detection', { text: ENGLISH, language: 'en', sentences: false }, { token });
    expect(result.status).toBe(200);
    expect(result.language).toBe('en');
    const bilingual = await engine.execute('ai-content-detection', { text: `${FRENCH}\n\nTranslation: ${ENGLISH}`, language: 'en' }, { token });
    expect(bilingual.result.status).toBe(200);
  });
});
