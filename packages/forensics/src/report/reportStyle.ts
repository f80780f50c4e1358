/** The report's only style sheet, inline: the page loads nothing. */
export const REPORT_CSS = `
*,*::before,*::after{box-sizing:border-box}
:root{--ink:#1d2433;--muted:#5b6475;--line:#dfe3ea;--paper:#ffffff;--wash:#f4f6f9;--ok:#1f7a4d;--ok-bg:#e6f4ec;--alert:#b42318;--alert-bg:#fdecea;--neutral:#8a5a00;--neutral-bg:#fff5e0}
html{background:var(--wash);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
body{margin:0 auto;max-width:1240px;padding:28px 32px 40px}
header{margin-bottom:18px}
.kicker{margin:0;color:var(--muted);font-size:12px;letter-spacing:.08em;text-transform:uppercase}
h1{margin:2px 0 4px;font-size:26px;line-height:1.25;overflow-wrap:anywhere}
h2{margin:30px 0 4px;font-size:19px}
h3{margin:0;font-size:15px;line-height:1.3}
.sub,.hint,.detail,.note,figcaption p{color:var(--muted)}
.sub{margin:0;font-size:13px}
.tags{margin:8px 0 0;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:6px}
.tags li{background:#e8ecf3;border-radius:999px;padding:1px 10px;font-size:12px;overflow-wrap:anywhere}
.verdict{display:flex;gap:22px;align-items:flex-start;border-radius:10px;padding:18px 22px;border:1px solid var(--line);background:var(--paper)}
.verdict .badge{flex:none;font-weight:700;font-size:20px;border-radius:8px;padding:8px 16px}
.tone-ok .badge{background:var(--ok-bg);color:var(--ok)}
.tone-alert .badge{background:var(--alert-bg);color:var(--alert)}
.tone-neutral .badge{background:var(--neutral-bg);color:var(--neutral)}
.tone-ok{border-left:6px solid var(--ok)}.tone-alert{border-left:6px solid var(--alert)}.tone-neutral{border-left:6px solid var(--neutral)}
.verdict p{margin:0 0 8px}
.facts{display:flex;flex-wrap:wrap;gap:6px 26px;margin:0}
.facts div{display:flex;gap:6px}.facts dt{color:var(--muted)}.facts dd{margin:0;font-weight:600}
.lead{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:18px;margin-top:18px;align-items:start}
.lead.single{grid-template-columns:minmax(0,1fr);max-width:760px}
figure{margin:0}
.card{background:var(--paper);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.photo img{display:block;width:100%;height:auto;border-radius:6px}
.photo figcaption{margin-top:8px;font-size:13px}
.side{display:flex;flex-direction:column;gap:18px;min-width:0}
.scores ul{list-style:none;margin:10px 0 0;padding:0;display:flex;flex-direction:column;gap:9px}
.scores li{display:grid;grid-template-columns:minmax(0,11fr) minmax(0,8fr) 3.2em;gap:10px;align-items:center;font-size:13px}
.scores .name{overflow-wrap:anywhere}
.meter{height:10px;border-radius:5px;background:#e8ecf3;overflow:hidden}
.meter span{display:block;height:100%;background:#5b3f8c;border-radius:5px}
.scores .value{text-align:right;font-variant-numeric:tabular-nums;font-weight:600}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:16px;margin-top:12px}
.panel{display:flex;flex-direction:column;gap:8px}
.detail{margin:2px 0 0;font-size:12px;overflow-wrap:anywhere}
.heat{border-radius:6px;overflow:hidden;background:repeating-conic-gradient(#d9dde4 0 25%,#f2f4f7 0 50%) 0 0/12px 12px}
.heat img{display:block;width:100%;height:auto}
.heat img.pixelated{image-rendering:pixelated}
.legend{position:relative}
.bar{height:12px;border-radius:3px;border:1px solid rgba(0,0,0,.15)}
.ticks{position:relative;height:18px;font-size:11px;font-variant-numeric:tabular-nums;color:var(--ink)}
.ticks span{position:absolute;top:2px;transform:translateX(-50%);white-space:nowrap}
.ticks span:first-child{transform:none}.ticks span:last-child{transform:translateX(-100%)}
.scale{margin:2px 0 0;font-size:12px;color:var(--ink)}
.note{margin:0;font-size:12px}
.failed{background:var(--alert-bg);color:var(--alert);border-radius:6px;padding:10px 12px;font-size:13px;overflow-wrap:anywhere}
details{margin-top:18px}
summary{cursor:pointer;font-weight:600}
section.block{margin-top:8px}
dl.findings{margin:10px 0 0;display:grid;grid-template-columns:max-content minmax(0,1fr);gap:8px 16px}
dl.findings dt{font-weight:600;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
dl.findings dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin-top:10px;background:var(--paper);border:1px solid var(--line);border-radius:8px;font-size:13px}
th,td{text-align:left;vertical-align:top;padding:5px 10px;border-bottom:1px solid var(--line)}
th{width:32%;font-weight:600;color:var(--muted);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
td{overflow-wrap:anywhere;white-space:pre-wrap}
tr:last-child th,tr:last-child td{border-bottom:none}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--paper);border:1px solid var(--line);border-radius:8px;padding:12px 14px;font-size:13px;margin:10px 0 0}
footer{margin-top:32px;padding-top:12px;border-top:1px solid var(--line);color:var(--muted);font-size:12px}
footer p{margin:2px 0}
@media (max-width:760px){.lead{grid-template-columns:minmax(0,1fr)}body{padding:16px}}
@media print{html{background:#fff}.card,.verdict{break-inside:avoid}}
`;
