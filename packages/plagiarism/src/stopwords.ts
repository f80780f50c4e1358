import type { PlagiarismLanguage } from './languages.js';

/**
 * Very frequent function words of the languages written in Latin, Cyrillic or Devanagari script. They serve
 * two purposes: telling those languages apart (`detectLanguage`) and leaving function words out of fingerprints
 * and sentence profiles, where they would make unrelated texts look alike.
 */
const LISTS: Partial<Record<PlagiarismLanguage, string>> = {
  en: `a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having he her
    here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or
    other our out over own same she should so some such than that the their them then there these they this those
    through to too under until up very was we were what when where which while who whom why will with would you your
    yours said says one two may might must shall upon however also us its it's i'm don't`,
  fr: 'le la les de des du un une et est en que qui dans pour pas sur au aux avec ce cette il elle ils sont ne par plus se son sa ses nous vous leur été être fait comme mais ou où',
  de: 'der die das und ist nicht ein eine einen dem den des zu mit sich auf für im von auch als an es sie er ich wir ihr sind war wurde werden nach bei aus oder wie noch nur über',
  es: 'el la los las de del y en que es un una por con para no se su sus al lo como más pero sobre este esta fue son ha ser entre también cuando muy sin',
  pt: 'o a os as de do da dos das e em que é um uma para com não se por no na nos nas ao mais como mas foi ser são pelo pela também seu sua entre quando muito',
  nl: 'de het een en van in is dat op te zijn met voor niet die er aan ook als bij door maar om dan nog wel naar uit werd wordt hij zij ze worden heeft',
  it: 'il lo la i gli le di del della dei delle e è in un una per con non che si da al alla sono come ma più anche questo questa nel nella era stato',
  no: 'og i det er som en et på til av for med at ikke den de har var jeg han hun vi kan fra seg men om ble skal også',
  sv: 'och i att det är som en ett på av för med till den de inte har var jag han hon vi kan från sig men om blev ska också',
  da: 'og i at det er som en et på af for med til den de ikke har var jeg han hun vi kan fra sig men om blev skal også',
  fi: 'ja on ei se että oli hän ovat kun mutta tai myös sen joka ovat olla kuin niin mukaan jo vain sekä',
  is: 'og að í á er sem við það ekki til með var um af en hann hún þau eru þetta eða frá',
  ga: 'agus an na is ar a le go i ag ní sé sí siad bhí tá do ó mar seo sin',
  pl: 'i w na z się nie do jest to że o jak a od po za tak ale są przez dla co jego jej lub czy był była',
  cs: 'a v na se je že s z o do to i k ve jako pro by by byl byla jsou ale nebo jeho které který která',
  sk: 'a v na sa je že s z o do to i k vo ako pre by bol bola sú ale alebo jeho ktoré ktorý ktorá',
  ro: 'și în de la a cu pe o un este că nu din care se mai sau au fost ca pentru sunt acest această',
  hu: 'a az és hogy nem is egy van meg ez de csak volt már mint ki el vagy sem azt ahol',
  hr: 'i u je na se da za od su a s ne kao što to iz ili bio bila koji koja ali',
  tr: 've bir bu da de için ile çok olarak gibi daha en ama ne o ki mi olan sonra kadar değil',
  vi: 'và của là có không những được trong cho các một người với này đã khi đến như từ',
  ms: 'dan yang di ini itu dengan untuk tidak dalam akan pada ke daripada kerana boleh telah juga oleh ialah',
  id: 'dan yang di ini itu dengan untuk tidak dalam akan pada ke dari karena bisa telah juga oleh adalah sudah',
  tl: 'ang ng sa na at mga ay si ni para hindi ito kung may siya sila ako ko',
  sq: 'dhe në të një për që me nga është u e i janë si nuk do ka më por',
  ru: 'и в не на что с он как это по но из его она к у за от же то так все было для о был',
  uk: 'і в не на що з він як це по але із його вона до у за від же то так все було для та є',
  bg: 'и в не на че с той като това по но от за се да е са бе беше има тя те',
  kk: 'және бұл мен да де бір үшін деп ол осы мен болды жылы деген',
  hi: 'के है में की और से को का एक यह पर भी हैं था कि नहीं लिए',
  mr: 'आहे आणि या व हे की ते म्हणून आहेत होते तर त्या एक करून',
};

const PARSED = new Map<PlagiarismLanguage, ReadonlySet<string>>();
for (const [code, words] of Object.entries(LISTS)) {
  PARSED.set(code as PlagiarismLanguage, new Set(words.split(/\s+/).filter((w) => w.length > 0)));
}

/** Languages that have a stop-word list. */
export const STOPWORD_LANGUAGES: readonly PlagiarismLanguage[] = [...PARSED.keys()];

const EMPTY: ReadonlySet<string> = new Set();

/** The stop words of `language` (lower case); empty when the language has none here. */
export function stopwordsOf(language: PlagiarismLanguage): ReadonlySet<string> {
  return PARSED.get(language) ?? EMPTY;
}
