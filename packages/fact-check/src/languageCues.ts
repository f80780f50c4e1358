import type { FactCheckLanguage } from './languages.js';

/**
 * What text analysis needs to know of one language, in one place (STYLE.md: segmentation, cue words, number and date
 * forms), for fact checking and for any other feature that reads the same languages (plagiarism and AI text can
 * import it from the package index). Every word is lower-case. For languages written without spaces between words
 * (`zh`, `ja`, `th`) the cue lists are matched as substrings, for the others as whole tokens (phrases as runs of
 * tokens, see {@link hasCue}).
 */
export interface LanguageCues {
  /** First-person pronouns and possessives of the speaker: a sentence about the writer is not a checkable claim. */
  firstPerson: readonly string[];
  /** Token prefixes that mark the first person (French elision `j'`, Korean `저는`). */
  firstPersonPrefixes?: readonly string[];
  /** Openly hedged or opinion phrases (`I think`, `maybe`, `in my opinion`): such a sentence is not a claim. */
  opinion: readonly string[];
  /** Negation cues: a claim and a source that differ in them disagree. */
  negations: readonly string[];
  /** Words written with a final period that does not end a sentence (`dr`, `z. b.` as `z` and `b`, `etc`). */
  abbreviations: readonly string[];
  /** Whether ordinals are written as digits with a period (`am 13. August`, `1961. augusztus`). */
  ordinalPeriod: boolean;
  /** Month names and their abbreviations; after `13.` they show an ordinal date rather than a sentence end. */
  months: readonly string[];
  /** Words before `13.` that show an ordinal (`am 13.`, `im 20. Jahrhundert`). */
  ordinalLeads?: readonly string[];
  /** Whether words are written without spaces (cues matched as substrings). */
  unspaced?: boolean;
  /** Negation cues found inside words (Korean `않` in `않았다`). */
  negationInfixes?: readonly string[];
}

/** Comma-separated entries (phrases may contain spaces). */
const list = (entries: string): string[] => entries.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);

const MONTHS_EN = list('january, february, march, april, may, june, july, august, september, october, november, december, jan, feb, mar, apr, jun, jul, aug, sep, sept, oct, nov, dec');

/** The cues of each of the 39 fact-checking languages (`FACT_CHECK_LANGUAGES`). */
export const LANGUAGE_CUES: Readonly<Record<FactCheckLanguage, LanguageCues>> = {
  en: {
    firstPerson: list('i, me, my, mine, we, us, our, ours, myself, ourselves'),
    // The hedges of fact-check 2.0.0's claim filter, unchanged.
    opinion: list('i think, i believe, i feel, i guess, in my opinion, in my view, it seems, perhaps, maybe, probably'),
    negations: list("not, n't, no, never, none, nobody, nothing, neither, nor, cannot, can't, don't, doesn't, didn't, isn't, aren't, wasn't, weren't, won't, hasn't, haven't, hadn't, without"),
    abbreviations: list('mr, mrs, ms, dr, prof, sr, jr, st, vs, etc, e.g, i.e, approx, no, nos, fig, figs, inc, ltd, co, corp, dept, est, gen, gov, sen, rep, rev, mt, ft, u.s, u.k, u.n, a.m, p.m, ca, cf, al'),
    ordinalPeriod: false,
    months: MONTHS_EN,
  },
  de: {
    firstPerson: list('ich, wir, mein, meine, meinen, meinem, meiner, meines, unser, unsere, unseren, unserem, unserer, unseres, mich, mir, uns'),
    opinion: list('ich denke, ich glaube, ich finde, ich meine, meiner meinung nach, meines erachtens, meiner ansicht nach, vielleicht, wahrscheinlich, vermutlich, womöglich, möglicherweise, anscheinend'),
    negations: list('nicht, kein, keine, keinen, keinem, keiner, keines, nie, niemals, nichts, niemand, weder, noch nie, ohne'),
    abbreviations: list('z.b, u.a, usw, bzw, ca, dr, prof, nr, str, vgl, evtl, ggf, inkl, sog, d.h, etc, jh, jhd, mio, mrd, hr, fr, st, abs, bspw, geb, gest, min, max, tel, zzgl, u.ä, o.ä, v.a, s.o, s.u, dt, engl, franz'),
    ordinalPeriod: true,
    months: list('januar, jänner, februar, märz, april, mai, juni, juli, august, september, oktober, november, dezember, jan, feb, mär, apr, jun, jul, aug, sep, sept, okt, nov, dez'),
    ordinalLeads: list('am, im, vom, zum, bis, ab, seit, dem, den, der, die, das, des, zur, beim'),
  },
  fr: {
    firstPerson: list('je, nous, mon, ma, mes, notre, nos, moi, me, nôtre, nôtres, mien, mienne, miens, miennes'),
    firstPersonPrefixes: ["j'", "m'"],
    opinion: list("je pense, je crois, je trouve, je suppose, à mon avis, selon moi, d'après moi, pour moi, peut-être, probablement, sans doute, il me semble, il semble"),
    negations: list("ne, n', pas, jamais, aucun, aucune, rien, personne, non, ni, sans, nullement"),
    abbreviations: list('m, mm, mme, mmes, mlle, dr, pr, me, st, ste, etc, ex, cf, env, av, apr, j.-c, janv, févr, avr, juil, sept, oct, nov, déc, n°, no, p, vol, éd, chap, fig, min, max, bd, hab'),
    ordinalPeriod: false,
    months: list('janvier, février, mars, avril, mai, juin, juillet, août, septembre, octobre, novembre, décembre, janv, févr, avr, juil, sept, oct, nov, déc'),
  },
  es: {
    firstPerson: list('yo, nosotros, nosotras, mi, mis, mío, mía, míos, mías, nuestro, nuestra, nuestros, nuestras, me, nos, conmigo'),
    opinion: list('creo que, pienso que, opino que, considero que, en mi opinión, a mi juicio, a mi parecer, me parece, quizá, quizás, tal vez, probablemente, a lo mejor, supongo'),
    negations: list('no, nunca, jamás, nada, nadie, ningún, ninguna, ninguno, ni, sin, tampoco'),
    abbreviations: list('sr, sra, srta, dr, dra, prof, etc, ej, ee, uu, núm, pág, págs, av, avda, ud, uds, vd, vds, d, dña, aprox, ene, feb, mar, abr, jun, jul, ago, sept, oct, nov, dic, a.c, d.c, a. c, d. c, cap, fig, lic, ing, gral, sto, sta'),
    ordinalPeriod: false,
    months: list('enero, febrero, marzo, abril, mayo, junio, julio, agosto, septiembre, setiembre, octubre, noviembre, diciembre, ene, feb, mar, abr, jun, jul, ago, sept, oct, nov, dic'),
  },
  pt: {
    firstPerson: list('eu, nós, meu, minha, meus, minhas, nosso, nossa, nossos, nossas, mim, me, nos, comigo, conosco'),
    opinion: list('eu acho, acho que, eu penso, penso que, creio que, na minha opinião, a meu ver, para mim, talvez, provavelmente, parece-me, suponho'),
    negations: list('não, nunca, nem, nenhum, nenhuma, nada, ninguém, jamais, sem'),
    abbreviations: list('sr, sra, srta, dr, dra, prof, profa, etc, ex, pág, n.º, nº, av, jan, fev, mar, abr, jun, jul, ago, set, out, nov, dez, cap, fig, aprox, eng, lda, s.a'),
    ordinalPeriod: false,
    months: list('janeiro, fevereiro, março, abril, maio, junho, julho, agosto, setembro, outubro, novembro, dezembro, jan, fev, mar, abr, jun, jul, ago, set, out, nov, dez'),
  },
  it: {
    firstPerson: list('io, noi, mio, mia, miei, mie, nostro, nostra, nostri, nostre, me, mi, ci'),
    opinion: list('penso che, credo che, ritengo che, secondo me, a mio parere, a mio avviso, forse, probabilmente, mi sembra, mi pare, suppongo'),
    negations: list('non, mai, nessuno, nessuna, niente, nulla, né, senza'),
    abbreviations: list('sig, sigg, sig.ra, dott, dott.ssa, prof, ecc, es, pag, pagg, ca, n, dr, avv, ing, on, gen, feb, mar, apr, giu, lug, ago, sett, ott, nov, dic, cap, fig, vol, s.p.a'),
    ordinalPeriod: false,
    months: list('gennaio, febbraio, marzo, aprile, maggio, giugno, luglio, agosto, settembre, ottobre, novembre, dicembre'),
  },
  nl: {
    firstPerson: list('ik, wij, we, mijn, ons, onze, mij, me'),
    opinion: list('ik denk, ik vind, ik geloof, volgens mij, naar mijn mening, mijns inziens, misschien, waarschijnlijk, wellicht, vermoedelijk, het lijkt'),
    negations: list('niet, geen, nooit, niets, niemand, noch, zonder'),
    abbreviations: list('bijv, bv, d.w.z, dwz, enz, o.a, ca, dhr, mevr, dr, prof, nr, blz, jan, feb, mrt, apr, jun, jul, aug, sep, sept, okt, nov, dec, mr, ir, ing, drs, m.b.t, i.p.v, t.o.v, e.d'),
    ordinalPeriod: false,
    months: list('januari, februari, maart, april, mei, juni, juli, augustus, september, oktober, november, december, jan, feb, mrt, apr, jun, jul, aug, sep, sept, okt, nov, dec'),
  },
  da: {
    firstPerson: list('jeg, vi, min, mit, mine, vores, mig, os'),
    opinion: list('jeg synes, jeg tror, jeg mener, efter min mening, måske, sandsynligvis, formentlig, vist, nok'),
    negations: list('ikke, aldrig, ingen, intet, ingenting, hverken, uden'),
    abbreviations: list('f.eks, bl.a, dvs, osv, ca, nr, hr, fru, dr, prof, mv, jf, kl, evt, pga, inkl, jan, feb, mar, apr, jun, jul, aug, sep, sept, okt, nov, dec'),
    ordinalPeriod: true,
    months: list('januar, februar, marts, april, maj, juni, juli, august, september, oktober, november, december, jan, feb, mar, apr, jun, jul, aug, sep, sept, okt, nov, dec'),
  },
  no: {
    firstPerson: list('jeg, eg, vi, min, mitt, mine, vår, vårt, våre, meg, oss'),
    opinion: list('jeg synes, jeg tror, jeg mener, etter min mening, kanskje, sannsynligvis, trolig, antakelig, visstnok'),
    negations: list('ikke, ikkje, aldri, ingen, intet, ingenting, verken, uten'),
    abbreviations: list('f.eks, bl.a, dvs, osv, ca, nr, dr, prof, mv, jf, kl, evt, pga, inkl, jan, feb, mar, apr, jun, jul, aug, sep, sept, okt, nov, des'),
    ordinalPeriod: true,
    months: list('januar, februar, mars, april, mai, juni, juli, august, september, oktober, november, desember, jan, feb, mar, apr, jun, jul, aug, sep, sept, okt, nov, des'),
  },
  sv: {
    firstPerson: list('jag, vi, min, mitt, mina, vår, vårt, våra, mig, mej, oss'),
    opinion: list('jag tycker, jag tror, jag anser, enligt min mening, enligt mig, kanske, förmodligen, troligen, antagligen, nog'),
    negations: list('inte, ej, aldrig, ingen, inget, inga, ingenting, varken, utan'),
    abbreviations: list('t.ex, bl.a, dvs, osv, ca, nr, dr, prof, s.k, m.fl, f.d, kl, resp, jan, feb, mar, apr, jun, jul, aug, sep, sept, okt, nov, dec, st, tel'),
    ordinalPeriod: false,
    months: list('januari, februari, mars, april, maj, juni, juli, augusti, september, oktober, november, december'),
  },
  fi: {
    firstPerson: list('minä, mä, me, minun, mun, meidän, minua, meitä, minulla, meillä, minulle, meille, minusta, meistä'),
    opinion: list('mielestäni, luulen, uskon, ajattelen, ehkä, todennäköisesti, kai, luultavasti, minusta tuntuu, näyttää siltä'),
    negations: list('ei, en, emme, eivät, et, ette, eikä, koskaan, mitään, kukaan, ilman'),
    abbreviations: list('esim, ns, mm, jne, yms, tms, prof, tri, n, ks, vrt, ym, eaa, jaa, klo, puh, os'),
    ordinalPeriod: true,
    months: list('tammikuuta, helmikuuta, maaliskuuta, huhtikuuta, toukokuuta, kesäkuuta, heinäkuuta, elokuuta, syyskuuta, lokakuuta, marraskuuta, joulukuuta, tammikuu, helmikuu, maaliskuu, huhtikuu, toukokuu, kesäkuu, heinäkuu, elokuu, syyskuu, lokakuu, marraskuu, joulukuu'),
  },
  et: {
    firstPerson: list('mina, ma, meie, me, minu, mu, meid, mind, meil, mul, mulle, meile'),
    opinion: list('ma arvan, minu arvates, minu meelest, arvan, usun, võib-olla, ilmselt, tõenäoliselt, vist'),
    negations: list('ei, pole, mitte, ega, kunagi, midagi, keegi, ilma'),
    abbreviations: list('nt, jne, s.t, st, dr, prof, nr, u, vt, jm, pr, hr, lk, tel, a, e.m.a, m.a.j'),
    ordinalPeriod: true,
    months: list('jaanuar, veebruar, märts, aprill, mai, juuni, juuli, august, september, oktoober, november, detsember, jaanuaril, veebruaril, märtsil, aprillil, mail, juunil, juulil, augustil, septembril, oktoobril, novembril, detsembril'),
  },
  hu: {
    firstPerson: list('én, mi, enyém, miénk, nekem, nekünk, engem, minket, engemet, bennünket'),
    opinion: list('szerintem, úgy gondolom, azt hiszem, úgy vélem, véleményem szerint, talán, valószínűleg, feltehetően, lehet, hogy'),
    negations: list('nem, nincs, nincsenek, sosem, soha, sem, se, semmi, senki, nélkül'),
    abbreviations: list('pl, stb, dr, kb, ill, ún, ld, vö, sz, u, évf, jan, febr, márc, ápr, máj, jún, júl, aug, szept, okt, nov, dec, id, ifj, özv, kft, zrt'),
    ordinalPeriod: true,
    months: list('január, február, március, április, május, június, július, augusztus, szeptember, október, november, december, jan, febr, márc, ápr, máj, jún, júl, aug, szept, okt, nov, dec'),
  },
  pl: {
    firstPerson: list('ja, my, mój, moja, moje, moi, mojego, mojej, nasz, nasza, nasze, nasi, naszego, naszej, mnie, mi, nas, nam, nami'),
    opinion: list('myślę, uważam, sądzę, moim zdaniem, być może, może, prawdopodobnie, chyba, wydaje mi się, przypuszczam'),
    negations: list('nie, nigdy, nic, nikt, żaden, żadna, żadne, ani, bez'),
    abbreviations: list('np, tj, tzn, itd, itp, m.in, dr, prof, inż, mgr, ok, r, w, ul, nr, św, godz, tys, mln, mld, zł, str, wg, tzw, im, pl, al, sty, lut, mar, kwi, maj, cze, lip, sie, wrz, paź, lis, gru'),
    ordinalPeriod: true,
    months: list('stycznia, lutego, marca, kwietnia, maja, czerwca, lipca, sierpnia, września, października, listopada, grudnia, styczeń, luty, marzec, kwiecień, maj, czerwiec, lipiec, sierpień, wrzesień, październik, listopad, grudzień'),
  },
  cs: {
    firstPerson: list('já, my, můj, moje, moji, mé, mého, mému, náš, naše, naši, našeho, mi, mně, mě, nás, nám, námi'),
    opinion: list('myslím, myslím si, domnívám se, podle mě, podle mého názoru, možná, asi, pravděpodobně, věřím, zdá se'),
    negations: list('ne, není, nejsou, nebyl, nebyla, nebylo, nebyly, nemá, nemají, nikdy, nic, nikdo, žádný, žádná, žádné, bez, ani'),
    abbreviations: list('např, tj, atd, tzv, resp, prof, dr, ing, mgr, str, č, r, st, s, mil, mld, tis, ul, apod, aj, min, max, viz'),
    ordinalPeriod: true,
    months: list('ledna, února, března, dubna, května, června, července, srpna, září, října, listopadu, prosince, leden, únor, březen, duben, květen, červen, červenec, srpen, říjen, listopad, prosinec'),
  },
  sk: {
    firstPerson: list('ja, my, môj, moja, moje, moji, môjho, náš, naša, naše, naši, nášho, mi, mne, ma, nás, nám, nami'),
    opinion: list('myslím, myslím si, domnievam sa, podľa mňa, podľa môjho názoru, možno, asi, pravdepodobne, verím, zdá sa'),
    negations: list('nie, nikdy, nič, nikto, žiadny, žiadna, žiadne, nebol, nebola, nebolo, neboli, nemá, nemajú, bez, ani'),
    abbreviations: list('napr, tj, atď, tzv, resp, prof, dr, ing, mgr, č, r, str, st, s, mil, mld, tis, ul, a.i, min, max, pozn'),
    ordinalPeriod: true,
    months: list('januára, februára, marca, apríla, mája, júna, júla, augusta, septembra, októbra, novembra, decembra, január, február, marec, apríl, máj, jún, júl, august, september, október, november, december'),
  },
  sl: {
    firstPerson: list('jaz, mi, moj, moja, moje, naš, naša, naše, meni, nam, mene, nas, me'),
    opinion: list('mislim, menim, verjamem, po mojem mnenju, po mojem, morda, verjetno, najbrž, se mi zdi'),
    negations: list('ne, ni, niso, nisem, nismo, nikoli, nič, nihče, noben, nobena, brez'),
    abbreviations: list('npr, tj, itd, ipd, dr, prof, mag, št, l, oz, str, ul, mio, mrd, tisoč, jan, feb, mar, apr, jun, jul, avg, sep, okt, nov, dec'),
    ordinalPeriod: true,
    months: list('januar, januarja, februar, februarja, marec, marca, april, aprila, maj, maja, junij, junija, julij, julija, avgust, avgusta, september, septembra, oktober, oktobra, november, novembra, december, decembra'),
  },
  hr: {
    firstPerson: list('ja, mi, moj, moja, moje, moji, mojeg, mojega, naš, naša, naše, naši, našeg, meni, nama, mene, nas, me'),
    opinion: list('mislim, smatram, vjerujem, po mom mišljenju, po mojem mišljenju, možda, vjerojatno, čini mi se'),
    negations: list('ne, nije, nisu, nisam, nismo, nema, nikada, nikad, ništa, nitko, nijedan, bez, ni'),
    abbreviations: list('dr, npr, tj, itd, sv, prof, god, br, st, mr, ing, str, tzv, mil, mlrd, tis, ul, sl, pr, kr'),
    ordinalPeriod: true,
    months: list('siječnja, veljače, ožujka, travnja, svibnja, lipnja, srpnja, kolovoza, rujna, listopada, studenoga, studenog, prosinca, siječanj, veljača, ožujak, travanj, svibanj, lipanj, srpanj, kolovoz, rujan, listopad, studeni, prosinac'),
  },
  sr: {
    firstPerson: list('ја, ми, мој, моја, моје, наш, наша, наше, мени, нама, мене, нас, ja, mi, moj, moja, moje, naš, naša, naše, meni, nama, mene, nas'),
    opinion: list('мислим, сматрам, верујем, по мом мишљењу, можда, вероватно, чини ми се, mislim, smatram, verujem, po mom mišljenju, možda, verovatno, čini mi se'),
    negations: list('не, није, нису, нема, никада, ништа, нико, без, ne, nije, nisu, nema, nikada, ništa, niko, bez'),
    abbreviations: list('др, нпр, тј, итд, проф, год, бр, св, ст, мил, млрд, ул, dr, npr, tj, itd, prof, god, br, sv, st, mil, mlrd, ul'),
    ordinalPeriod: true,
    months: list('јануара, фебруара, марта, априла, маја, јуна, јула, августа, септембра, октобра, новембра, децембра, januara, februara, marta, aprila, maja, juna, jula, avgusta, septembra, oktobra, novembra, decembra'),
  },
  bg: {
    firstPerson: list('аз, ние, мой, моя, моето, моите, моят, наш, наша, нашето, нашите, нашият, ми, ни, мен, нас'),
    opinion: list('мисля, смятам, според мен, може би, вероятно, струва ми се, предполагам, вярвам'),
    negations: list('не, няма, никога, нито, нищо, никой, без'),
    abbreviations: list('г, гр, др, проф, напр, т.е, т.нар, ул, бр, стр, млн, млрд, хил, чл, ал, д-р, ян, фев, апр, юни, юли, авг, септ, окт, ноем, дек'),
    ordinalPeriod: false,
    months: list('януари, февруари, март, април, май, юни, юли, август, септември, октомври, ноември, декември'),
  },
  ru: {
    firstPerson: list('я, мы, мой, моя, моё, мое, мои, моего, моей, наш, наша, наше, наши, нашего, нашей, меня, мне, нас, нам, мною, нами'),
    opinion: list('я думаю, я считаю, я полагаю, по-моему, по моему мнению, возможно, наверное, вероятно, мне кажется, может быть, полагаю, видимо'),
    negations: list('не, нет, никогда, ничего, никто, ни, без, нельзя'),
    abbreviations: list('т, е, д, п, г, гг, др, проф, им, ул, напр, см, млн, млрд, тыс, руб, стр, с, в, вв, т.е, т.д, т.п, т.н, и.о, янв, февр, апр, авг, сент, окт, нояб, дек'),
    ordinalPeriod: false,
    months: list('января, февраля, марта, апреля, мая, июня, июля, августа, сентября, октября, ноября, декабря'),
  },
  uk: {
    firstPerson: list('я, ми, мій, моя, моє, мої, мого, моєї, наш, наша, наше, наші, нашого, нашої, мене, мені, нас, нам, нами'),
    opinion: list('я думаю, я вважаю, на мою думку, можливо, мабуть, ймовірно, мені здається, може бути, напевно'),
    negations: list('не, ні, ніколи, ніщо, нічого, ніхто, без, немає, нема'),
    abbreviations: list('т, з, д, п, р, рр, ст, проф, д-р, ім, вул, млн, млрд, тис, напр, грн, с, див, т.з, т.д, т.п, січ, лют, бер, квіт, трав, черв, лип, серп, вер, жовт, лист, груд'),
    ordinalPeriod: false,
    months: list('січня, лютого, березня, квітня, травня, червня, липня, серпня, вересня, жовтня, листопада, грудня'),
  },
  el: {
    firstPerson: list('εγώ, εμείς, μου, μας, εμένα, εμάς, δικός μου, δική μου, δικό μου'),
    opinion: list('νομίζω, πιστεύω, θεωρώ, κατά τη γνώμη μου, κατά την άποψή μου, ίσως, μάλλον, πιθανώς, πιθανόν, μου φαίνεται'),
    negations: list('δεν, μην, μη, όχι, ποτέ, κανείς, κανένας, καμία, τίποτα, χωρίς'),
    abbreviations: list('π.χ, κ.λπ, κ.ά, δηλ, κ, κα, δρ, καθ, αρ, σελ, εκ, χιλ, π.χ, μ.χ, ιαν, φεβ, μαρ, απρ, ιουν, ιουλ, αυγ, σεπ, οκτ, νοε, δεκ'),
    ordinalPeriod: false,
    months: list('ιανουαρίου, φεβρουαρίου, μαρτίου, απριλίου, μαΐου, ιουνίου, ιουλίου, αυγούστου, σεπτεμβρίου, οκτωβρίου, νοεμβρίου, δεκεμβρίου'),
  },
  ro: {
    firstPerson: list('eu, noi, meu, mea, mei, mele, nostru, noastră, noștri, noastre, mie, mine, ne, nouă, îmi, mi, mă'),
    opinion: list('cred că, eu cred, consider că, în opinia mea, după părerea mea, după mine, poate, probabil, mi se pare, presupun'),
    negations: list('nu, niciodată, nimic, nimeni, niciun, nicio, fără, nici'),
    abbreviations: list('dl, dna, d-l, d-na, dr, prof, etc, ex, nr, pag, str, ian, feb, mart, apr, iun, iul, aug, sept, oct, nov, dec, mil, mld, ș.a, ș.a.m.d, p.ex'),
    ordinalPeriod: false,
    months: list('ianuarie, februarie, martie, aprilie, mai, iunie, iulie, august, septembrie, octombrie, noiembrie, decembrie'),
  },
  lv: {
    firstPerson: list('es, mēs, mans, mana, mani, manas, manu, mūsu, man, mums, mūs'),
    opinion: list('es domāju, manuprāt, varbūt, iespējams, droši vien, es uzskatu, es ticu, šķiet, laikam'),
    negations: list('ne, nav, nebija, nekad, neviens, nekas, nē, bez'),
    abbreviations: list('piem, u.c, utt, t.i, dr, prof, nr, g, gs, lpp, milj, mljrd, tūkst, janv, febr, apr, jūn, jūl, aug, sept, okt, nov, dec'),
    ordinalPeriod: true,
    months: list('janvārī, februārī, martā, aprīlī, maijā, jūnijā, jūlijā, augustā, septembrī, oktobrī, novembrī, decembrī, janvāris, februāris, marts, aprīlis, maijs, jūnijs, jūlijs, augusts, septembris, oktobris, novembris, decembris'),
  },
  lt: {
    firstPerson: list('aš, mes, mano, mūsų, man, mums, mane, mus'),
    opinion: list('manau, mano nuomone, galbūt, tikriausiai, turbūt, tikiu, man atrodo, ko gero'),
    negations: list('ne, nėra, nebuvo, niekada, nieko, niekas, joks, jokia, be, nei'),
    abbreviations: list('pvz, t.y, kt, dr, prof, nr, m, d, a, g, proc, mln, mlrd, tūkst, psl, sausio, vas, kov, bal, geg, birž, liep, rugp, rugs, spal, lapkr, gruod'),
    ordinalPeriod: false,
    months: list('sausio, vasario, kovo, balandžio, gegužės, birželio, liepos, rugpjūčio, rugsėjo, spalio, lapkričio, gruodžio'),
  },
  tr: {
    firstPerson: list('ben, biz, benim, bizim, bana, bize, beni, bizi, bende, bizde, benden, bizden'),
    opinion: list('bence, sanırım, düşünüyorum, inanıyorum, bana göre, belki, muhtemelen, galiba, herhalde, bana kalırsa'),
    negations: list('değil, yok, hiç, asla, hayır, hiçbir, olmadan, olmayan'),
    abbreviations: list('dr, prof, doç, vb, vs, örn, yy, sn, no, cad, sok, mah, alb, yrd, bkz, s, ö, m.ö, m.s'),
    ordinalPeriod: true,
    months: list('ocak, şubat, mart, nisan, mayıs, haziran, temmuz, ağustos, eylül, ekim, kasım, aralık'),
  },
  id: {
    firstPerson: list('saya, aku, kami, kita, daku, ku'),
    opinion: list('saya pikir, saya rasa, menurut saya, menurutku, saya kira, saya percaya, mungkin, barangkali, sepertinya, kayaknya, rasanya'),
    negations: list('tidak, bukan, tak, belum, tanpa, jangan, tiada, nggak, enggak'),
    abbreviations: list('dr, prof, dll, dsb, dst, yth, no, tsb, hlm, jl, jln, sdr, bpk, ibu, kab, kec, jan, feb, mar, apr, jun, jul, agu, agt, sep, okt, nov, des'),
    ordinalPeriod: false,
    months: list('januari, februari, maret, april, mei, juni, juli, agustus, september, oktober, november, desember'),
  },
  sw: {
    firstPerson: list('mimi, sisi, yangu, wangu, changu, langu, zangu, kwangu, letu, wetu, chetu, yetu, zetu, kwetu, nami, nasi'),
    opinion: list('nadhani, nafikiri, naamini, kwa maoni yangu, labda, pengine, huenda, inaonekana'),
    negations: list('si, hapana, sio, siyo, hakuna, bila, hakuwa, hawakuwa, haikuwa'),
    abbreviations: list('k.m, n.k, dkt, bw, bi, prof, nk, mh, uk'),
    ordinalPeriod: false,
    months: list('januari, februari, machi, aprili, mei, juni, julai, agosti, septemba, oktoba, novemba, desemba'),
  },
  vi: {
    firstPerson: list('tôi, chúng tôi, chúng ta, mình, tớ, ta, tao, của tôi'),
    opinion: list('tôi nghĩ, tôi cho rằng, theo tôi, có lẽ, có thể, chắc là, tôi tin, hình như, dường như'),
    negations: list('không, chưa, chẳng, đừng, chả, không phải, không có'),
    abbreviations: list('tp, ts, gs, pgs, th.s, v.v, tr, bs, ks'),
    ordinalPeriod: false,
    months: list('tháng'),
  },
  ar: {
    firstPerson: list('أنا, انا, نحن, لي, لنا, عندي, عندنا, بلدي, بلادنا'),
    opinion: list('أعتقد, اعتقد, أظن, اظن, برأيي, في رأيي, في رايي, ربما, أرى أن, أشعر, يبدو, على ما أظن, من وجهة نظري'),
    negations: list('لا, لم, لن, ليس, ليست, غير, ما, بدون, دون, ليسوا'),
    abbreviations: list('د, م, ق, هـ, ص'),
    ordinalPeriod: false,
    months: list('يناير, فبراير, مارس, أبريل, مايو, يونيو, يوليو, أغسطس, سبتمبر, أكتوبر, نوفمبر, ديسمبر, كانون, شباط, آذار, نيسان, أيار, حزيران, تموز, آب, أيلول, تشرين'),
  },
  he: {
    firstPerson: list('אני, אנחנו, אנו, שלי, שלנו, אותי, אותנו, לי, לנו'),
    opinion: list('אני חושב, אני חושבת, לדעתי, אולי, כנראה, אני מאמין, אני מאמינה, נראה לי, ייתכן, בעיניי'),
    negations: list('לא, אין, אינו, אינה, אינם, מעולם, אף, בלי, ללא'),
    abbreviations: list('ד"ר, פרופ, וכו, עמ'),
    ordinalPeriod: false,
    months: list('ינואר, פברואר, מרץ, אפריל, מאי, יוני, יולי, אוגוסט, ספטמבר, אוקטובר, נובמבר, דצמבר'),
  },
  hi: {
    firstPerson: list('मैं, हम, मेरा, मेरी, मेरे, हमारा, हमारी, हमारे, मुझे, हमें, मुझको, हमको, मुझसे, हमसे'),
    opinion: list('मुझे लगता है, मेरे विचार से, मेरी राय में, मेरे ख्याल से, शायद, संभवतः, मैं सोचता, मैं सोचती, मैं मानता, मैं मानती, लगता है'),
    negations: list('नहीं, न, मत, ना, बिना'),
    abbreviations: list('डॉ, श्री, श्रीमती, प्रो, सं, पृ, ई'),
    ordinalPeriod: false,
    months: list('जनवरी, फ़रवरी, फरवरी, मार्च, अप्रैल, मई, जून, जुलाई, अगस्त, सितंबर, सितम्बर, अक्टूबर, नवंबर, नवम्बर, दिसंबर, दिसम्बर'),
  },
  bn: {
    firstPerson: list('আমি, আমরা, আমার, আমাদের, আমাকে, আমাদেরকে, মোর, মোদের'),
    opinion: list('আমার মনে হয়, আমি মনে করি, আমার মতে, সম্ভবত, হয়তো, বোধহয়, মনে হয়'),
    negations: list('না, নয়, নেই, নি, নাই, ছাড়া'),
    abbreviations: list('ড, ডা, মো, মোঃ, খ্রি'),
    ordinalPeriod: false,
    months: list('জানুয়ারি, ফেব্রুয়ারি, মার্চ, এপ্রিল, মে, জুন, জুলাই, আগস্ট, সেপ্টেম্বর, অক্টোবর, নভেম্বর, ডিসেম্বর'),
  },
  ko: {
    firstPerson: list('나, 저, 우리, 저희, 내, 제'),
    firstPersonPrefixes: ['나는', '내가', '나의', '저는', '제가', '저의', '우리', '저희'],
    opinion: list('생각한다, 생각합니다, 생각해요, 생각해, 것 같다, 것 같아요, 것 같습니다, 아마, 아마도, 제 생각에는, 내 생각에는, 믿는다, 듯하다'),
    negations: list('안, 못, 아니다, 아닌, 아니'),
    negationInfixes: ['않', '없', '못했'],
    abbreviations: list('박사, 등'),
    ordinalPeriod: false,
    months: list('1월, 2월, 3월, 4월, 5월, 6월, 7월, 8월, 9월, 10월, 11월, 12월'),
  },
  zh: {
    firstPerson: list('我, 我们, 我們, 咱们, 咱們, 本人'),
    opinion: list('我认为, 我認為, 我觉得, 我覺得, 我想, 我相信, 在我看来, 在我看來, 也许, 也許, 或许, 或許, 大概, 可能, 恐怕, 似乎'),
    negations: list('不, 没, 沒, 未, 无, 無, 非, 别, 別'),
    abbreviations: [],
    ordinalPeriod: false,
    months: list('月'),
    unspaced: true,
  },
  ja: {
    firstPerson: list('私, 僕, 俺, 我々, わたし, あたし, ぼく, われわれ'),
    opinion: list('と思う, と思います, と思った, と考えます, と考える, 私見, たぶん, 多分, おそらく, 恐らく, かもしれ, でしょう, 気がする, と感じ'),
    negations: list('ない, ません, なかった, ず, ではない, じゃない'),
    abbreviations: [],
    ordinalPeriod: false,
    months: list('月'),
    unspaced: true,
  },
  th: {
    firstPerson: list('ฉัน, ผม, ดิฉัน, เรา, พวกเรา, กระผม, ข้าพเจ้า, หนู, ของฉัน, ของผม, ของเรา'),
    opinion: list('คิดว่า, เชื่อว่า, ในความคิดของ, ในความเห็นของ, อาจจะ, บางที, น่าจะ, รู้สึกว่า, คงจะ'),
    negations: list('ไม่, มิ, ไม่ได้, ไม่มี, ไม่ใช่'),
    abbreviations: list('ดร, ศ, รศ, ผศ, พ.ศ, ค.ศ, ม.ค, ก.พ, มี.ค, เม.ย, พ.ค, มิ.ย, ก.ค, ส.ค, ก.ย, ต.ค, พ.ย, ธ.ค'),
    ordinalPeriod: false,
    months: list('มกราคม, กุมภาพันธ์, มีนาคม, เมษายน, พฤษภาคม, มิถุนายน, กรกฎาคม, สิงหาคม, กันยายน, ตุลาคม, พฤศจิกายน, ธันวาคม'),
    unspaced: true,
  },
};

/** The cues of `language` (English for a code outside the 39). */
export function languageCues(language: string): LanguageCues {
  return (LANGUAGE_CUES as Record<string, LanguageCues>)[language] ?? LANGUAGE_CUES.en;
}

const phraseCache = new Map<readonly string[], Array<readonly string[]>>();

function phrases(cues: readonly string[]): Array<readonly string[]> {
  let split = phraseCache.get(cues);
  if (!split) {
    split = cues.map((cue) => cue.split(/\s+/u));
    phraseCache.set(cues, split);
  }
  return split;
}

/**
 * Whether `lowerTokens` (a sentence's lower-cased word tokens) contain one of `cues` (a phrase as consecutive tokens);
 * for an unspaced language, whether `text` contains it.
 */
export function hasCue(cues: readonly string[], lowerTokens: readonly string[], text: string, unspaced = false): boolean {
  if (unspaced) return cues.some((cue) => text.includes(cue));
  const lower = lowerTokens.map((t) => t.replace(/’/g, "'"));
  return phrases(cues).some((phrase) => {
    for (let i = 0; i + phrase.length <= lower.length; i++) {
      if (phrase.every((word, k) => lower[i + k] === word)) return true;
    }
    return false;
  });
}

/** Whether a sentence speaks in the first person in `language`. */
export function isFirstPerson(language: string, lowerTokens: readonly string[], text: string): boolean {
  const cues = languageCues(language);
  if (hasCue(cues.firstPerson, lowerTokens, text, cues.unspaced)) return true;
  const prefixes = cues.firstPersonPrefixes ?? [];
  return lowerTokens.some((t) => prefixes.some((p) => t.startsWith(p)));
}

/** Whether a sentence is openly hedged or states an opinion in `language`. */
export function isOpinion(language: string, lowerTokens: readonly string[], text: string): boolean {
  const cues = languageCues(language);
  return hasCue(cues.opinion, lowerTokens, text.toLowerCase(), cues.unspaced);
}

/** Whether a text (its lower-cased tokens) contains a negation cue of `language`. */
export function isNegated(language: string, lowerTokens: readonly string[], text: string): boolean {
  const cues = languageCues(language);
  if (hasCue(cues.negations, lowerTokens, text, cues.unspaced)) return true;
  const infixes = cues.negationInfixes ?? [];
  return infixes.length > 0 && lowerTokens.some((t) => infixes.some((i) => t.includes(i)));
}
