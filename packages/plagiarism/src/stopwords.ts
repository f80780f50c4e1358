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

/**
 * Function words of the languages whose words `Intl.Segmenter` finds without spaces (ja, zh, th) or that attach
 * particles to words (ko, ar), and of the other scripts (he, el, fa, ur, bn, gu, ka and the Dravidian languages). Short lists of particles, auxiliaries, pronouns,
 * conjunctions and prepositions, as the word segmenter cuts them (`です`, `にし`, `ที่สุด`), chosen from the
 * high-frequency entries of stopwords-iso 1.1.0 (MIT, github.com/stopwords-iso) and checked word by word; they
 * are not used for language detection (the script decides there). Without them a particle (の, 的, ที่) counts as
 * a content word: a shared particle matched as evidence and pulled the writer's own sentences into a passage.
 */
const OTHER_LISTS: Partial<Record<PlagiarismLanguage, string>> = {
  ja: `の に は を た が で て と し れ さ ある いる も する から な こと として い や れる など なっ ない この ため
    その あっ よう また もの という あり まで られ なる へ か だ これ によって により おり より による ず なり られる
    において ば なかっ なく しかし について せ だっ できる それ う ので なお のみ でき き つ における および いう
    さらに でも ら たり たち ます ん なら に対して 及び とき では にて ほか ながら うち そして とともに ただし
    それぞれ または お ほど ものの に対する といった です とも ところ ここ にし でし ませ いた して 的`,
  zh: `的 了 在 是 和 与 及 也 就 都 而 或 着 之 其 并 但 对 从 把 被 让 给 向 以 于 为 由 所 这 那 这个 那个 这些
    那些 一个 我们 他们 它们 它 他 她 我 你 您 吗 呢 吧 啊 等 上 中 下 个 不 没有 有 又 还 很 更 最 已 已经 将 会
    能 可以 因为 所以 如果 虽然 但是 而且 并且 以及 其中 之一 得 地 过 来 去 每 各 该 此 者 人人 任何`,
  th: `ที่ และ ของ ใน มี การ เป็น ได้ จะ ให้ ว่า ไม่ กับ ความ จาก แต่ ก็ หรือ โดย แล้ว ซึ่ง อยู่ ไป มา นี้ นั้น คือ
    ด้วย เพื่อ ถึง ยัง กัน ทั้ง อย่าง ต้อง เมื่อ ถ้า หาก ทุก ตาม ต่อ อัน แก่ แห่ง ไว้ เช่น ดัง นั่น ขึ้น ลง ถูก
    ทาง เขา เรา ท่าน คน`,
  ko: `이 그 저 것 수 등 및 또는 또 그리고 하지만 그러나 때문에 위해 위한 의 를 을 에 에서 은 는 가 도 로 으로 와 과
    한 하는 있는 있다 없다 된다 한다 하다 되는 더 안 못 잘 모든 각 어떤 이러한 그러한 통해 대한 대해 같은
    있으며 없이 이며 이다 바 중 후 전`,
  ar: `في من على إلى الى عن أن ان إن أو او و ثم كان كانت يكون تكون هذا هذه ذلك تلك التي الذي الذين اللذين ما لا لم
    لن قد كل بعض هو هي هم هن نحن أنت مع بين عند حتى إذا اذا لكل له لها لهم أي اي غير أيضا ايضا كما بل ضد ب ل
    فيه فيها منه منها عليه عليها إليه به بها وفي ومن وعلى وأن ولا أما إلا الا`,
  he: 'של את על עם זה זו הוא היא הם הן כי לא אם או גם כל אשר אל מן בין כמו יש אין היה היתה',
  el: 'και το η ο οι τα της του των τον την σε με για από που να είναι δεν θα ως στο στη στην στον στα',
  fa: 'و در به از که این را با است برای آن یک تا هم خود می شود بر یا نیز شده',
  ur: 'کے کی کا میں اور سے کو ہے یہ ہیں پر نے بھی کہ ایک تھا وہ جو',
  bn: 'এবং ও এই যে না করে থেকে জন্য একটি হয় তার এর সঙ্গে হবে কোন সব',
  gu: 'અને છે તે આ એક માં ના ની નું થી પણ કે જે હતું',
  // Not in stopwords-iso: conjunctions, demonstratives, the copula and "one", written here.
  ka: 'და არის რომ ეს ის არ მე შენ ჩვენ თქვენ მათ ან თუ როგორც ასევე მაგრამ იყო იმ ამ',
  ml: 'ഒരു ഈ ആ എന്ന ആണ് അത് ഇത് എന്നാൽ കൂടാതെ',
  ta: 'ஒரு இந்த அந்த மற்றும் என்று உள்ள இது அது ஆனால் என அவர் போது',
  te: 'ఒక ఈ ఆ మరియు అని ఉన్న ఇది అది కానీ కూడా వారు',
  kn: 'ಒಂದು ಈ ಆ ಮತ್ತು ಎಂದು ಇದು ಅದು ಆದರೆ ಸಹ ಅವರು',
};

const PARSED = new Map<PlagiarismLanguage, ReadonlySet<string>>();
for (const [code, words] of Object.entries(LISTS)) {
  PARSED.set(code as PlagiarismLanguage, new Set(words.split(/\s+/).filter((w) => w.length > 0)));
}

/** Languages told apart by their stop words (`detectLanguage`). */
export const STOPWORD_LANGUAGES: readonly PlagiarismLanguage[] = [...PARSED.keys()];

for (const [code, words] of Object.entries(OTHER_LISTS)) {
  PARSED.set(code as PlagiarismLanguage, new Set(words.split(/\s+/).filter((w) => w.length > 0)));
}

const EMPTY: ReadonlySet<string> = new Set();

/** The stop words of `language` (lower case); empty when the language has none here. */
export function stopwordsOf(language: PlagiarismLanguage): ReadonlySet<string> {
  return PARSED.get(language) ?? EMPTY;
}
