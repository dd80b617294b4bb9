/** The brand kit affiliates may use: colours, logos and ready-made creatives with captions. */
export function brandAssets(appUrl: string) {
  const asset = (name: string) => `${appUrl}/brand/${name}`;
  return {
    colors: [
      { name: 'Primary', hex: '#2F6FEB' },
      { name: 'Ink', hex: '#111827' },
      { name: 'Accent', hex: '#10B981' },
      { name: 'Paper', hex: '#FFFFFF' },
    ],
    logos: [
      { variant: 'full-color', format: 'svg', url: asset('logo.svg') },
      { variant: 'full-color', format: 'png', url: asset('logo.png') },
      { variant: 'white', format: 'svg', url: asset('logo-white.svg') },
      { variant: 'mark', format: 'png', url: asset('mark.png') },
    ],
    creatives: [
      {
        id: 'feed-square',
        channel: 'instagram',
        size: '1080x1080',
        format: 'png',
        url: asset('creative-feed-square.png'),
        caption: 'Answer every customer in seconds, day and night. Train a chat agent on your own pages and FAQs in minutes.',
        hashtags: ['#chatbot', '#customersupport', '#smallbusiness', '#automation'],
      },
      {
        id: 'story-vertical',
        channel: 'instagram-story',
        size: '1080x1920',
        format: 'png',
        url: asset('creative-story.png'),
        caption: 'Your website, now with a helper that never sleeps. Start free today.',
        hashtags: ['#AI', '#startup', '#support'],
      },
      {
        id: 'banner-wide',
        channel: 'x',
        size: '1600x900',
        format: 'png',
        url: asset('creative-banner.png'),
        caption: 'Leads captured while you sleep: a chat agent trained on your knowledge, live on your site in 5 minutes.',
        hashtags: ['#leadgen', '#SaaS', '#chatbot'],
      },
      {
        id: 'jp-square',
        channel: 'instagram',
        size: '1080x1080',
        format: 'png',
        url: asset('creative-jp-square.png'),
        caption: 'お問い合わせに24時間すぐ回答。自社のFAQやページを学習したチャットエージェントを数分で導入できます。',
        hashtags: ['#チャットボット', '#カスタマーサポート', '#業務効率化'],
      },
    ],
    guidelines: ['Keep clear space around the logo equal to the height of the mark.', 'Do not recolour, stretch or rotate the logo.', 'Disclose that you earn a commission when you share your link.'],
  };
}
