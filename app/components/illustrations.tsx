// Simple drawings in the brand's colours, inline (no request, no stock photo), decorative: each is
// hidden from assistive technology, since the words beside it say what it shows.

const BRAND = "#1d5fd1";
const BRAND_LIGHT = "#d9eaff";
const MONEY = "#0a7a4f";

/** A phone showing an approved loan: the site's promise of applying from a phone. */
export function PhoneLoanIllustration({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 240 200" className={className} aria-hidden="true" focusable="false">
      <circle cx="120" cy="100" r="92" fill={BRAND_LIGHT} />
      <rect x="78" y="22" width="84" height="158" rx="14" fill="#fff" stroke="#0f172a" strokeWidth="4" />
      <rect x="104" y="30" width="32" height="5" rx="2.5" fill="#cbd5e1" />
      <rect x="90" y="48" width="60" height="10" rx="3" fill={BRAND} />
      <rect x="90" y="66" width="44" height="6" rx="3" fill="#cbd5e1" />
      <rect x="90" y="78" width="52" height="6" rx="3" fill="#cbd5e1" />
      <circle cx="120" cy="122" r="22" fill={MONEY} />
      <path d="M109 122l8 8 15-16" fill="none" stroke="#fff" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
      <rect x="92" y="154" width="56" height="12" rx="6" fill={BRAND} />
      <circle cx="186" cy="58" r="20" fill="#fff" stroke={MONEY} strokeWidth="4" />
      <text x="186" y="66" textAnchor="middle" fontSize="22" fontWeight="700" fill={MONEY} fontFamily="sans-serif">
        ₹
      </text>
      <circle cx="52" cy="140" r="14" fill="#fff" stroke={BRAND} strokeWidth="4" />
      <path d="M46 140h12M52 134v12" stroke={BRAND} strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

/** Three short steps ticked off: the quick start. */
export function StepsIllustration({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 200 120" className={className} aria-hidden="true" focusable="false">
      <rect x="10" y="10" width="180" height="100" rx="14" fill={BRAND_LIGHT} />
      {[30, 58, 86].map((y, i) => (
        <g key={y}>
          <circle cx="40" cy={y} r="10" fill={i < 2 ? MONEY : "#fff"} stroke={i < 2 ? MONEY : BRAND} strokeWidth="3" />
          {i < 2 ? (
            <path d={`M35 ${y}l4 4 7-8`} fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
          ) : null}
          <rect x="60" y={y - 5} width={i === 2 ? 70 : 100} height="10" rx="5" fill={i < 2 ? "#94a3b8" : BRAND} />
        </g>
      ))}
    </svg>
  );
}

/** Two speech bubbles: help from a person. */
export function HelpIllustration({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 160 110" className={className} aria-hidden="true" focusable="false">
      <path d="M14 18a12 12 0 0112-12h72a12 12 0 0112 12v34a12 12 0 01-12 12H50l-18 16V64h-6a12 12 0 01-12-12z" fill={BRAND_LIGHT} />
      <rect x="30" y="22" width="58" height="8" rx="4" fill={BRAND} />
      <rect x="30" y="38" width="40" height="8" rx="4" fill="#94a3b8" />
      <path
        d="M146 54a12 12 0 00-12-12H74a12 12 0 00-12 12v28a12 12 0 0012 12h40l18 14V94h2a12 12 0 0012-12z"
        fill="#fff"
        stroke={MONEY}
        strokeWidth="3"
      />
      <path d="M90 68l8 8 16-16" fill="none" stroke={MONEY} strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
