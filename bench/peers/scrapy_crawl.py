"""The crawl bench's Scrapy row: a spider over the generated web, as anwc harvest walks it
(robots.txt obeyed, the same pages in flight, every <p> read), nothing stored. Run by bench/crawl.ts:

    python3 scrapy_crawl.py PORT HOSTS CONCURRENCY

Prints one JSON line: pages, paragraphs, and the process's own CPU ms and peak RSS.
"""
import json
import re
import resource
import sys

from scrapy import Spider
from scrapy.crawler import CrawlerProcess
from scrapy.resolver import CachingThreadedResolver
from twisted.internet import defer

PORT, HOSTS, CONCURRENCY = (int(a) for a in sys.argv[1:4])
OURS = re.compile(r'^http://h\d+\.graded\.test(:\d+)?/')
seen = {'pages': 0, 'paragraphs': 0}


class LoopbackResolver(CachingThreadedResolver):
    """The generated web's names are ours: they reach loopback, and no other name is looked up."""

    def getHostByName(self, name, timeout=None):
        if name.endswith('.test'):
            return defer.succeed('127.0.0.1')
        return defer.fail(OSError(f'no DNS in benches ({name})'))


class Walk(Spider):
    name = 'walk'
    start_urls = [f'http://h{h}.graded.test:{PORT}/' for h in range(HOSTS)]

    def parse(self, response):
        seen['pages'] += 1
        seen['paragraphs'] += sum(1 for t in response.css('p').xpath('string()').getall() if t.strip())
        for href in response.css('a::attr(href)').getall():
            url = response.urljoin(href)
            if OURS.match(url):
                yield response.follow(url, self.parse)


def peak_rss_kb(fallback):
    """VmHWM where Linux gives it: ru_maxrss survives exec, and would count the bench's own memory."""
    try:
        with open('/proc/self/status') as status:
            for line in status:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return fallback


process = CrawlerProcess(settings={
    'ROBOTSTXT_OBEY': True,
    'CONCURRENT_REQUESTS': CONCURRENCY,
    'CONCURRENT_REQUESTS_PER_DOMAIN': CONCURRENCY,
    'DOWNLOAD_DELAY': 0,
    'RETRY_ENABLED': False,
    'DNS_RESOLVER': f'{__name__}.LoopbackResolver',
    'LOG_ENABLED': False,
    'TELNETCONSOLE_ENABLED': False,
    'REQUEST_FINGERPRINTER_IMPLEMENTATION': '2.7',
})
process.crawl(Walk)
process.start()
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({**seen, 'cpuMs': (u.ru_utime + u.ru_stime) * 1000, 'maxRssKb': peak_rss_kb(u.ru_maxrss)}))
