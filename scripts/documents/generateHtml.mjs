// Generates the web page fixtures: pages with navigation, ads, a cookie banner, comments, related links and a
// footer around the article, metadata in JSON-LD, OpenGraph and meta tags; the expected article text and metadata.

const ARTICLE_PARAGRAPHS = [
  'The city council voted on Tuesday to convert the disused freight line along the eastern river bank into a walking and cycling path. The route will link four neighbourhoods that are currently separated by the railway embankment and the river.',
  'Work is expected to start next spring. The first section, between the old goods yard and the stadium, will open within a year, while the northern section depends on the purchase of a strip of land from the port authority.',
  'Residents who spoke at the meeting were broadly in favour. Several asked for lighting along the whole length of the path and for benches at the viewpoints over the river. The council said both were included in the design.',
  'The project will cost about twelve million, two thirds of which will come from the regional transport fund. Maintenance will be paid from the parks budget, which was increased last year.',
];
const SUBHEADING = 'Concerns about the old bridges';
const AFTER_SUBHEADING = [
  'The line crosses two small bridges built in the nineteenth century. Engineers inspected both last winter and found them sound, but the railings will have to be raised to meet current safety rules.',
  'A group of rail enthusiasts has asked that one of the signal boxes be kept as a small museum. The council agreed to consider the request when the detailed plans are drawn up.',
];

const BLOG_PARAGRAPHS = [
  'Every autumn I try to save seeds from the vegetables that did well in the garden. It costs nothing, and over the years the plants seem to adapt a little to the soil and the weather here.',
  'Beans and peas are the easiest place to start. Leave a few pods on the plant until they are dry and rattle when you shake them, then shell them and keep the seeds in a paper envelope somewhere cool.',
  'Tomatoes need a little more work. Scoop the seeds into a jar with some water, leave them for three days until a layer of mould forms, then rinse them well and dry them on a plate.',
  'Whatever you save, label it with the variety and the year. Most seeds keep for three or four years, but germination drops every season, so sow the oldest ones first.',
];

const p = (text) => `<p>${text}</p>`;

export function generateHtml() {
  const files = {};
  const news = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>River path approved | The Eastbank Courier</title>
<meta name="description" content="The council approved a walking and cycling path on the old freight line.">
<meta property="og:title" content="Council approves river path on old freight line">
<meta property="og:site_name" content="The Eastbank Courier">
<meta property="article:published_time" content="2024-05-14T09:30:00+02:00">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"The Eastbank Courier"},{"@type":"NewsArticle","headline":"Council approves river path on old freight line","author":[{"@type":"Person","name":"Dana Whitfield"}],"datePublished":"2024-05-14T09:30:00+02:00","description":"A walking and cycling path will replace the disused freight line along the eastern river bank."}]}</script>
<script>window.ads = [];</script>
<style>.ad { display: block }</style>
</head>
<body>
<div id="cookie-banner" class="cookie-consent"><p>We use cookies to improve your experience and to show personalised advertising. By continuing to browse you agree to our use of cookies.</p><button>Accept all</button><button>Settings</button></div>
<header class="site-header"><a href="/">The Eastbank Courier</a>
<nav class="main-nav"><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/business">Business</a></li><li><a href="/culture">Culture</a></li><li><a href="/opinion">Opinion</a></li></ul></nav>
</header>
<div class="ad ad-leaderboard"><a href="https://ads.example/click">Advertisement: Spring sale on garden furniture, up to forty percent off this week only</a></div>
<main>
<article class="story">
<h1>Council approves river path on old freight line</h1>
<p class="byline">By <a rel="author" href="/authors/dana">Dana Whitfield</a>, <time datetime="2024-05-14T09:30:00+02:00">14 May 2024</time></p>
<div class="story-body">
${ARTICLE_PARAGRAPHS.slice(0, 2).map(p).join('\n')}
<div class="ad ad-inline"><span>Advertisement</span><a href="https://ads.example/click2">Get a mortgage quote in five minutes</a></div>
${ARTICLE_PARAGRAPHS.slice(2).map(p).join('\n')}
<h2>${SUBHEADING}</h2>
${AFTER_SUBHEADING.map(p).join('\n')}
</div>
<div class="share-social"><a href="#">Share on social media</a> <a href="#">Email this article</a></div>
</article>
<aside class="related"><h3>Related stories</h3><ul><li><a href="/a">Bus lanes to be extended next year</a></li><li><a href="/b">Stadium car park to close for repairs</a></li></ul></aside>
<section id="comments" class="comments"><h3>Comments (2)</h3>
<div class="comment"><p class="comment-author">riverwalker</p><p>About time, I have been waiting for this path for years and years.</p></div>
<div class="comment"><p class="comment-author">Ted</p><p>Who is going to pay for the lighting, though? Not the council, surely.</p></div>
</section>
</main>
<footer class="site-footer"><p>Copyright The Eastbank Courier. All rights reserved.</p><ul><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li></ul></footer>
</body>
</html>
`;
  files['news-article.html'] = news;
  files['news-article.txt'] = `${[...ARTICLE_PARAGRAPHS, SUBHEADING, ...AFTER_SUBHEADING].join('\n\n')}\n`;
  files['news-article.metadata.json'] = `${JSON.stringify({
    title: 'Council approves river path on old freight line', author: 'Dana Whitfield',
    description: 'A walking and cycling path will replace the disused freight line along the eastern river bank.',
    publishedAt: '2024-05-14T07:30:00.000Z', siteName: 'The Eastbank Courier', language: 'en',
  }, null, 2)}\n`;

  const blog = `<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Saving seeds from your own garden - Notes from the Allotment</title>
<meta name="author" content="Priya Nandakumar">
<meta property="og:title" content="Saving seeds from your own garden">
<meta property="og:description" content="A short guide to keeping seeds from beans, peas and tomatoes.">
<meta property="og:site_name" content="Notes from the Allotment">
<meta name="date" content="2023-10-02">
</head>
<body>
<div class="wrapper">
<div class="topbar"><div class="menu"><a href="/">Home</a> | <a href="/archive">Archive</a> | <a href="/about">About</a> | <a href="/subscribe">Subscribe</a></div></div>
<div class="gdpr-popup" role="dialog"><p>This site uses cookies for analytics. Read our privacy policy to learn more about how we handle your data.</p><a href="#">OK</a></div>
<div class="sidebar"><h4>Sponsored</h4><div class="sponsor">Buy premium compost at the garden centre: free delivery on orders over fifty pounds.</div><h4>Archive</h4><ul><li><a href="/2023/09">September 2023</a></li><li><a href="/2023/08">August 2023</a></li></ul></div>
<div class="content">
<div class="post">
<h2 class="post-title">Saving seeds from your own garden</h2>
<div class="post-meta">Posted by Priya Nandakumar on 2 October 2023</div>
<div class="entry">
${BLOG_PARAGRAPHS.map(p).join('\n')}
</div>
</div>
<div class="comments-area"><h3>3 Responses</h3>
<div class="comment-body"><p>Great tips, I never knew about the mould trick for tomatoes.</p></div>
<div class="comment-body"><p>Do you save squash seeds too? Mine always cross with the neighbours' plants.</p></div>
<div class="comment-body"><p>Thanks for sharing this, very helpful for a beginner like me.</p></div>
</div>
</div>
<div class="footer">Notes from the Allotment. Powered by a small static site generator.</div>
</div>
</body>
</html>
`;
  files['blog-post.html'] = blog;
  files['blog-post.txt'] = `${BLOG_PARAGRAPHS.join('\n\n')}\n`;
  files['blog-post.metadata.json'] = `${JSON.stringify({
    title: 'Saving seeds from your own garden', author: 'Priya Nandakumar',
    description: 'A short guide to keeping seeds from beans, peas and tomatoes.', publishedAt: '2023-10-02T00:00:00.000Z',
    siteName: 'Notes from the Allotment', language: 'en-GB',
  }, null, 2)}\n`;
  return files;
}
