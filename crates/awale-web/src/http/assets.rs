//! The page's files, embedded in the binary (nothing is fetched from
//! anywhere else at run time), gzip-compressed once at build time
//! (`build.rs`), with ETags and cache headers: the versioned files under
//! `/v/{VERSION}/` are kept by browsers for good, `/` and `/sw.js` are
//! checked each time (a 304 when unchanged).

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::extract::header_items;

/// One file of the page as served.
pub struct Asset {
    /// Where it is served.
    pub path: &'static str,
    /// Its name under `page/`.
    pub file: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its ETag, quoted (the gzip form adds `-gz` inside the quotes).
    pub etag: &'static str,
    /// Its bytes.
    pub raw: &'static [u8],
    /// The same, gzip-compressed.
    pub gzip: &'static [u8],
}

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The prefix of the files that never change under their path.
const VERSIONED: &str = "/v/";

/// GET of any path that is not the API: the page's file there, or a JSON
/// 404.
pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if let Some(asset) = FILES.iter().find(|a| a.path == path) {
        let cache = if path.starts_with(VERSIONED) {
            "public, max-age=31536000, immutable"
        } else if path == "/favicon.svg" {
            "public, max-age=86400"
        } else {
            "no-cache"
        };
        return respond(asset, cache, &headers);
    }
    // A file of another version (a page from before the server was
    // updated): today's file, which no browser may keep for good.
    if let Some(rest) = path.strip_prefix(VERSIONED) {
        if let Some((_, file)) = rest.split_once('/') {
            if let Some(asset) = FILES
                .iter()
                .find(|a| a.path.starts_with(VERSIONED) && a.file == file)
            {
                return respond(asset, "no-cache", &headers);
            }
        }
    }
    super::error::not_found(uri).await.into_response()
}

fn respond(asset: &Asset, cache: &'static str, headers: &HeaderMap) -> Response {
    let gzip = accepts_gzip(headers);
    let etag = if gzip {
        format!("{}-gz\"", asset.etag.trim_end_matches('"'))
    } else {
        asset.etag.to_string()
    };
    let mut response = if none_match(headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Body::from(if gzip { asset.gzip } else { asset.raw }).into_response();
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(asset.content_type),
        );
        if gzip {
            r.headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        r
    };
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, value);
    }
    response
}

/// Whether the request takes gzip (`Accept-Encoding: gzip`, not `;q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    header_items(headers, header::ACCEPT_ENCODING, ',').any(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
    })
}

/// Whether `If-None-Match` names `etag` (weak comparison, as for GET).
fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    header_items(headers, header::IF_NONE_MATCH, ',')
        .map(|tag| tag.trim_start_matches("W/"))
        .any(|tag| tag == "*" || tag == etag)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{app, AppState, Config};
    use awale_store::Store;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use std::io::Read;
    use tower::ServiceExt;

    async fn get(path: &str, headers: &[(&str, &str)]) -> Response {
        let mut request = Request::get(path);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let router = app(AppState::new(
            Store::in_memory().expect("an in-memory store"),
            Config::default(),
        )
        .expect("a server state"));
        router
            .oneshot(request.body(Body::empty()).expect("a request"))
            .await
            .expect("an answer")
    }

    async fn body(response: Response) -> Vec<u8> {
        response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes()
            .to_vec()
    }

    fn asset(file: &str) -> &'static Asset {
        FILES
            .iter()
            .find(|a| a.file == file)
            .unwrap_or_else(|| panic!("no {file}"))
    }

    #[tokio::test]
    async fn gzip_is_served_when_accepted_and_decompresses_to_the_file() {
        for a in FILES {
            let r = get(a.path, &[("accept-encoding", "gzip, deflate, br")]).await;
            assert_eq!(r.status(), StatusCode::OK, "{}", a.path);
            assert_eq!(r.headers()[header::CONTENT_ENCODING], "gzip");
            let mut plain = Vec::new();
            flate2::read::GzDecoder::new(&body(r).await[..])
                .read_to_end(&mut plain)
                .expect("gzip");
            assert_eq!(plain, a.raw, "{}", a.path);
            assert!(
                a.gzip.len() < a.raw.len() || a.raw.len() < 600,
                "{}",
                a.path
            );
        }
        let r = get("/", &[("accept-encoding", "gzip;q=0, identity")]).await;
        assert!(r.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(body(r).await, asset("index.html").raw);
    }

    #[tokio::test]
    async fn a_known_etag_gets_304_without_a_body() {
        let main = asset("js/main.js");
        let first = get(main.path, &[("accept-encoding", "gzip")]).await;
        let etag = first.headers()[header::ETAG].to_str().unwrap().to_string();
        let again = get(
            main.path,
            &[("accept-encoding", "gzip"), ("if-none-match", &etag)],
        )
        .await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert!(body(again).await.is_empty());
        // The other encoding is another representation.
        let plain = get(main.path, &[("if-none-match", &etag)]).await;
        assert_eq!(plain.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn versioned_files_are_kept_for_good_and_the_page_is_checked() {
        let main = get(asset("js/main.js").path, &[]).await;
        assert!(main.headers()[header::CACHE_CONTROL]
            .to_str()
            .unwrap()
            .contains("immutable"));
        let page = get("/", &[]).await;
        assert_eq!(page.headers()[header::CACHE_CONTROL], "no-cache");
        let page = String::from_utf8(body(page).await).unwrap();
        assert!(page.contains(&format!("/v/{VERSION}/js/main.js")), "{page}");
        assert!(!page.contains("{{"), "a template mark is left: {page}");
        let worker = String::from_utf8(body(get("/sw.js", &[]).await).await).unwrap();
        assert!(worker.contains(VERSION) && !worker.contains("{{"));
    }

    #[tokio::test]
    async fn a_file_of_another_version_is_todays_and_not_kept() {
        let r = get("/v/0123456789ab/js/main.js", &[]).await;
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers()[header::CACHE_CONTROL], "no-cache");
        assert_eq!(body(r).await, asset("js/main.js").raw);
        let missing = get("/v/0123456789ab/nothing.js", &[]).await;
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    }

    /// Every `import ... from "./x.js"` of every script names an embedded
    /// script: a typo would only show in a browser otherwise.
    #[test]
    fn every_module_import_names_an_embedded_script() {
        for a in FILES.iter().filter(|a| a.file.ends_with(".js")) {
            let text = std::str::from_utf8(a.raw).expect("UTF-8");
            let dir = a.file.rsplit_once('/').map_or("", |(d, _)| d);
            for line in text.lines() {
                let line = line.trim();
                if !(line.starts_with("import ") || line.starts_with("export ")) {
                    continue;
                }
                let Some((_, rest)) = line.split_once(" from \"") else {
                    continue;
                };
                let target = rest.split('"').next().unwrap_or("");
                let name = target.strip_prefix("./").expect("imports are ./relative");
                let full = if dir.is_empty() {
                    name.to_string()
                } else {
                    format!("{dir}/{name}")
                };
                assert!(
                    FILES.iter().any(|f| f.file == full),
                    "{} imports {target}, which is not in page/",
                    a.file
                );
            }
        }
    }
}
