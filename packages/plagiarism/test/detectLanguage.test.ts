import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../src/index.js';

describe('detectLanguage', () => {
  it.each([
    ['en', 'The committee said that the new rules would be published before the end of the year and that they are final.'],
    ['fr', 'Le comité a dit que les nouvelles règles seront publiées avant la fin de l\'année et qu\'elles sont définitives.'],
    ['de', 'Der Ausschuss sagte, dass die neuen Regeln vor dem Ende des Jahres veröffentlicht werden und nicht mehr geändert werden.'],
    ['es', 'El comité dijo que las nuevas reglas se publicarán antes del final del año y que son definitivas para todos.'],
    ['ru', 'Комитет сказал, что новые правила будут опубликованы до конца года и что это окончательно.'],
    ['uk', 'Комітет сказав, що нові правила будуть опубліковані до кінця року і що це остаточно.'],
    ['ja', '委員会は、新しい規則が年末までに公表されると述べた。'],
    ['zh', '委员会表示，新规则将在年底前公布。'],
    ['ko', '위원회는 새로운 규칙이 연말 전에 발표될 것이라고 말했다.'],
    ['ar', 'قالت اللجنة إن القواعد الجديدة ستنشر قبل نهاية العام.'],
    ['fa', 'کمیته گفت که قوانین جدید پیش از پایان سال منتشر خواهد شد.'],
    ['el', 'Η επιτροπή είπε ότι οι νέοι κανόνες θα δημοσιευθούν πριν από το τέλος του έτους.'],
    ['hi', 'समिति ने कहा कि नए नियम साल के अंत से पहले प्रकाशित किए जाएंगे और यह अंतिम है।'],
    ['th', 'คณะกรรมการกล่าวว่ากฎใหม่จะประกาศก่อนสิ้นปี'],
  ])('recognises %s', (code, text) => {
    expect(detectLanguage(text)).toBe(code);
  });

  it('falls back when there is nothing to go on', () => {
    expect(detectLanguage('1234 5678', 'de')).toBe('de');
  });
});
