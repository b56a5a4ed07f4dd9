import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract } from '../../src/extract/index.js';
import { parseDom } from '../../src/html/index.js';
import { DEFAULT_HEURISTICS } from '../../src/text/index.js';

/*
 * Issue 32: the narrative extractor's stop-word rule spoke only English. A page whose main text
 * held a tenth of English stop words (Portuguese "a", "as", "do", "no"; a site template's English
 * links) was judged by the English list, every paragraph of its story failed, and the story was
 * lost. Each page below is written for this test: a story of two paragraphs, a menu of short
 * links, the site template's English links, a cookie line and a rights line.
 */

interface Site {
  story: [string, string];
  menu: string[];
  cookie: string;
  rights: string;
}

/** The links many sites' templates keep in English whatever the language of the story. */
const TEMPLATE = ['Share this story', 'Back to the top of the page', 'Sign in to your account', 'Follow us on the radio'];

function page(s: Site): string {
  const links = (items: string[], sep: string) => items.map((t, i) => `<a href="/${i}">${t}</a>`).join(sep);
  return `<html><body>
<div class="cookie-banner"><p>${s.cookie}</p></div>
<div class="article-body">
<ul class="sections">${s.menu.map((t, i) => `<li><a href="/s${i}">${t}</a></li>`).join('')}</ul>
<p>${s.story[0]}</p>
<p>${s.story[1]}</p>
<p>${links(TEMPLATE, ' · ')}</p>
</div>
<footer><p>${s.rights}</p></footer>
</body></html>`;
}

const narrative = (html: string) => extract(parseDom(html), 'narrative', { heuristics: DEFAULT_HEURISTICS }).kept.map((k) => k.text);

function keepsTheStoryOnly(s: Site): void {
  const kept = narrative(page(s));
  assert.deepEqual(kept, s.story, 'the two paragraphs of the story, and nothing else');
  for (const chrome of [...s.menu, ...TEMPLATE, s.cookie, s.rights]) {
    assert.ok(!kept.some((k) => k.includes(chrome)), `chrome kept: ${chrome}`);
  }
}

test('Portuguese: its own articles and prepositions ("a", "as", "do", "no") are not read as English stop words', () => {
  keepsTheStoryOnly({
    story: [
      'O faroleiro subia a escada da torre ao entardecer, e a lâmpada já estava acesa antes de o primeiro barco dobrar a ponta.',
      'Da galeria ele via a baía inteira, e os barcos de pesca eram pequenos e escuros contra a água prateada.',
    ],
    menu: ['Início', 'Notícias', 'Esportes', 'Contato'],
    cookie: 'Este site usa cookies para melhorar a sua experiência. Ao continuar, você aceita a nossa política de privacidade.',
    rights: 'Todos os direitos reservados.',
  });
});

test('Spanish: a story among English template links is judged by the Spanish list', () => {
  keepsTheStoryOnly({
    story: [
      'El farero subía la escalera de la torre al atardecer, y la lámpara ya estaba encendida antes de que el primer barco doblara la punta.',
      'Desde la galería veía toda la bahía, y los barcos de pesca eran pequeños y oscuros contra el agua plateada.',
    ],
    menu: ['Inicio', 'Noticias', 'Deportes', 'Contacto'],
    cookie: 'Este sitio utiliza cookies para mejorar su experiencia. Al continuar navegando, usted acepta nuestra política de privacidad.',
    rights: 'Todos los derechos reservados.',
  });
});

test('French: a story among English template links is judged by the French list', () => {
  keepsTheStoryOnly({
    story: [
      "Le gardien montait l'escalier de la tour au crépuscule, et la lampe était allumée avant que le premier bateau ne passe la pointe.",
      "Depuis la galerie, il voyait toute la baie, et les bateaux de pêche étaient petits et sombres sur l'eau argentée.",
    ],
    menu: ['Accueil', 'Actualités', 'Sports', 'Contact'],
    cookie: 'Ce site utilise des cookies pour améliorer votre expérience. En poursuivant votre navigation, vous acceptez notre politique de confidentialité.',
    rights: 'Tous droits réservés.',
  });
});

test('German: a story among English template links is judged by the German list', () => {
  keepsTheStoryOnly({
    story: [
      'Der Leuchtturmwärter stieg in der Dämmerung die Treppe des Turms hinauf, und die Lampe brannte schon, bevor das erste Boot um die Landzunge kam.',
      'Von der Galerie aus sah er die ganze Bucht, und die Fischerboote waren klein und dunkel auf dem silbernen Wasser.',
    ],
    menu: ['Startseite', 'Nachrichten', 'Sport', 'Kontakt'],
    cookie: 'Diese Website verwendet Cookies, um Ihr Erlebnis zu verbessern. Wenn Sie weitersurfen, stimmen Sie unserer Datenschutzerklärung zu.',
    rights: 'Alle Rechte vorbehalten.',
  });
});

test('Russian: a story among English template links is judged by the Russian list', () => {
  keepsTheStoryOnly({
    story: [
      'Смотритель поднимался по лестнице маяка в сумерках, и лампа уже горела, когда первая лодка огибала мыс.',
      'С галереи он видел весь залив, и рыбацкие лодки казались маленькими и тёмными на серебристой воде.',
    ],
    menu: ['Главная', 'Новости', 'Спорт', 'Контакты'],
    cookie: 'Этот сайт использует файлы cookie, чтобы сделать его удобнее. Продолжая просмотр, вы соглашаетесь с политикой конфиденциальности.',
    rights: 'Все права защищены.',
  });
});

test('Japanese: a story among English template links is judged by the Japanese list, its words told by Intl.Segmenter', () => {
  keepsTheStoryOnly({
    story: [
      '灯台守の老人は、毎晩同じ時刻に階段を上って灯りをともした。嵐の夜でさえ、彼は一度も遅れたことがなかったと村の人々は言う。',
      '回廊からは湾全体が見渡せ、漁船は銀色の水面に小さく黒く浮かんでいた。',
    ],
    menu: ['ホーム', 'ニュース', 'スポーツ', 'お問い合わせ'],
    cookie: '当サイトではクッキーを使用しています。閲覧を続けることで、プライバシーポリシーに同意したものとみなします。',
    rights: '無断転載を禁じます。',
  });
});

test('Chinese: a story among English template links is judged by the Chinese list, its words told by Intl.Segmenter', () => {
  keepsTheStoryOnly({
    story: [
      '灯塔看守人每天傍晚都会爬上塔顶点亮灯火。即使在暴风雨的夜里，他也从来没有迟到过，村里的人们至今还记得这件事。',
      '从回廊上可以看到整个海湾，渔船在银色的水面上显得又小又黑。',
    ],
    menu: ['首页', '新闻', '体育', '联系我们'],
    cookie: '本网站使用Cookie来改善您的浏览体验。继续浏览即表示您同意我们的隐私政策。',
    rights: '版权所有，翻印必究。',
  });
});

test('a page in a language none of the lists speaks keeps being judged without the stop-word rule', () => {
  // Finnish: stopwords-iso has a list, but the extractor tells only the languages it was measured on.
  const story: [string, string] = [
    'Majakanvartija nousi hämärissä tornin portaat, ja lamppu paloi jo ennen kuin ensimmäinen vene kiersi niemen.',
    'Parvelta hän näki koko lahden, ja kalastusveneet olivat pieniä ja tummia hopeista vettä vasten.',
  ];
  const kept = narrative(page({ story, menu: ['Etusivu', 'Uutiset', 'Urheilu', 'Yhteystiedot'], cookie: 'Tämä sivusto käyttää evästeitä.', rights: 'Kaikki oikeudet pidätetään.' }).replace(/<p><a href="\/0">Share.*?<\/p>/, ''));
  assert.deepEqual(kept, story);
});
