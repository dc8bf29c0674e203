//! A pod's volumes (`ValidateVolumes` and the volume sources: names, one source each,
//! paths, file modes, projected sources).

use super::*;

pub(super) fn validate_volumes(volumes: &[Volume], pod_name: Option<&str>, p: &str, errs: &mut Errs) -> VolumeSet {
    let mut all = VolumeSet::new();
    let created_pvcs: BTreeSet<String> = match pod_name.filter(|n| !n.is_empty()) {
        Some(n) => volumes.iter().filter(|v| v.ephemeral.is_some()).map(|v| format!("{n}-{}", v.name)).collect(),
        None => BTreeSet::new(),
    };
    for (i, v) in volumes.iter().enumerate() {
        let vp = format!("{p}[{i}]");
        let mut el = Vec::new();
        volume_source(v, &vp, pod_name, &mut el);
        if v.name.is_empty() {
            el.push(FieldError::required(format!("{vp}.name"), ""));
        } else {
            for m in names::dns1123_label(&v.name) {
                el.push(FieldError::invalid(format!("{vp}.name"), v.name.as_str(), m));
            }
        }
        if all.contains_key(&v.name) {
            el.push(FieldError::duplicate(format!("{vp}.name"), v.name.as_str()));
        }
        if el.is_empty() {
            all.insert(v.name.clone(), v.clone());
        } else {
            errs.extend(el);
        }
        if let Some(pvc) = &v.persistent_volume_claim {
            if created_pvcs.contains(&pvc.claim_name) {
                errs.push(FieldError::invalid(
                    format!("{vp}.persistentVolumeClaim.claimName"),
                    pvc.claim_name.as_str(),
                    "must not reference a PVC that gets created for an ephemeral volume",
                ));
            }
        }
    }
    all
}

pub(super) const FILE_MODE_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";

pub(super) fn file_mode(mode: Option<i32>, path: String, errs: &mut Errs) {
    if let Some(m) = mode.filter(|m| !(0..=0o777).contains(m)) {
        errs.push(FieldError::invalid(path, m, FILE_MODE_MSG));
    }
}

pub(super) fn path_no_backsteps(target: &str, path: &str, errs: &mut Errs) {
    if target.split('/').any(|s| s == "..") {
        errs.push(FieldError::invalid(path, target, "must not contain '..'"));
    }
}

pub(super) fn local_descending_path(target: &str, path: &str, errs: &mut Errs) {
    if target.starts_with('/') {
        errs.push(FieldError::invalid(path, target, "must be a relative path"));
    }
    path_no_backsteps(target, path, errs);
}

pub(super) fn local_non_reserved_path(target: &str, path: &str, errs: &mut Errs) {
    local_descending_path(target, path, errs);
    if target.starts_with("..") && !target.starts_with("../") {
        errs.push(FieldError::invalid(path, target, "must not start with '..'"));
    }
}

pub(super) fn key_to_path(key: &str, path_value: &str, mode: Option<i32>, p: &str, errs: &mut Errs) {
    if key.is_empty() {
        errs.push(FieldError::required(format!("{p}.key"), ""));
    }
    if path_value.is_empty() {
        errs.push(FieldError::required(format!("{p}.path"), ""));
    }
    local_non_reserved_path(path_value, &format!("{p}.path"), errs);
    file_mode(mode, format!("{p}.mode"), errs);
}

/// `validateVolumeSource`: exactly one source, each checked.
pub(super) fn volume_source(v: &Volume, p: &str, pod_name: Option<&str>, errs: &mut Errs) {
    let mut n = 0;
    let mut one = |present: bool, field: &str, errs: &mut Errs| -> bool {
        if !present {
            return false;
        }
        if n > 0 {
            errs.push(FieldError::forbidden(format!("{p}.{field}"), "may not specify more than 1 volume type"));
            false
        } else {
            n += 1;
            true
        }
    };
    if let Some(e) = &v.empty_dir {
        if one(true, "emptyDir", errs) {
            if let Some(q) = e.size_limit.as_ref().and_then(|q| crate::decode::parse_quantity(&q.0).ok()) {
                if q < Quantity::ZERO {
                    errs.push(FieldError::forbidden(
                        format!("{p}.emptyDir.sizeLimit"),
                        "SizeLimit field must be a valid resource quantity",
                    ));
                }
            }
        }
    }
    if let Some(h) = &v.host_path {
        if one(true, "hostPath", errs) {
            let hp = format!("{p}.hostPath");
            if h.path.is_empty() {
                errs.push(FieldError::required(format!("{hp}.path"), ""));
            } else {
                path_no_backsteps(&h.path, &format!("{hp}.path"), errs);
                if let Some(t) = h.type_.as_deref() {
                    const TYPES: [&str; 8] = [
                        "",
                        "BlockDevice",
                        "CharDevice",
                        "Directory",
                        "DirectoryOrCreate",
                        "File",
                        "FileOrCreate",
                        "Socket",
                    ];
                    if !TYPES.contains(&t) {
                        errs.push(FieldError::not_supported(format!("{hp}.type"), t, &TYPES));
                    }
                }
            }
        }
    }
    if one(v.git_repo.is_some(), "gitRepo", errs) {
        if let Some(g) = &v.git_repo {
            if g.repository.is_empty() {
                errs.push(FieldError::required(format!("{p}.gitRepo.repository"), ""));
            }
            local_descending_path(g.directory.as_deref().unwrap_or_default(), &format!("{p}.gitRepo.directory"), errs);
        }
    }
    one(v.gce_persistent_disk.is_some(), "gcePersistentDisk", errs);
    one(v.aws_elastic_block_store.is_some(), "awsElasticBlockStore", errs);
    if let Some(s) = &v.secret {
        if one(true, "secret", errs) {
            let sp = format!("{p}.secret");
            if s.secret_name.as_deref().unwrap_or_default().is_empty() {
                errs.push(FieldError::required(format!("{sp}.secretName"), ""));
            }
            file_mode(s.default_mode, format!("{sp}.defaultMode"), errs);
            for (i, kp) in s.items.iter().flatten().enumerate() {
                key_to_path(&kp.key, &kp.path, kp.mode, &format!("{sp}.items[{i}]"), errs);
            }
        }
    }
    if let Some(nfs) = &v.nfs {
        if one(true, "nfs", errs) {
            if nfs.server.is_empty() {
                errs.push(FieldError::required(format!("{p}.nfs.server"), ""));
            }
            if nfs.path.is_empty() {
                errs.push(FieldError::required(format!("{p}.nfs.path"), ""));
            }
            if !nfs.path.starts_with('/') {
                errs.push(FieldError::invalid(format!("{p}.nfs.path"), nfs.path.as_str(), "must be an absolute path"));
            }
        }
    }
    one(v.iscsi.is_some(), "iscsi", errs);
    one(v.glusterfs.is_some(), "glusterfs", errs);
    one(v.flocker.is_some(), "flocker", errs);
    if let Some(c) = &v.persistent_volume_claim {
        if one(true, "persistentVolumeClaim", errs) && c.claim_name.is_empty() {
            errs.push(FieldError::required(format!("{p}.persistentVolumeClaim.claimName"), ""));
        }
    }
    one(v.rbd.is_some(), "rbd", errs);
    one(v.cinder.is_some(), "cinder", errs);
    one(v.cephfs.is_some(), "cephFS", errs);
    one(v.quobyte.is_some(), "quobyte", errs);
    if let Some(d) = &v.downward_api {
        // Upstream's path for this conflict is spelled "downwarAPI".
        if one(true, "downwarAPI", errs) {
            let dp = format!("{p}.downwardAPI");
            file_mode(d.default_mode, format!("{dp}.defaultMode"), errs);
            for f in d.items.iter().flatten() {
                if f.path.is_empty() {
                    errs.push(FieldError::required(format!("{dp}.path"), ""));
                }
                local_non_reserved_path(&f.path, &format!("{dp}.path"), errs);
                if f.field_ref.is_none() && f.resource_field_ref.is_none() {
                    errs.push(FieldError::required(dp.clone(), "one of fieldRef and resourceFieldRef is required"));
                }
                file_mode(f.mode, format!("{dp}.mode"), errs);
            }
        }
    }
    one(v.fc.is_some(), "fc", errs);
    one(v.flex_volume.is_some(), "flexVolume", errs);
    if let Some(c) = &v.config_map {
        if one(true, "configMap", errs) {
            let cp = format!("{p}.configMap");
            if c.name.is_empty() {
                errs.push(FieldError::required(format!("{cp}.name"), ""));
            }
            file_mode(c.default_mode, format!("{cp}.defaultMode"), errs);
            for (i, kp) in c.items.iter().flatten().enumerate() {
                key_to_path(&kp.key, &kp.path, kp.mode, &format!("{cp}.items[{i}]"), errs);
            }
        }
    }
    one(v.azure_file.is_some(), "azureFile", errs);
    one(v.vsphere_volume.is_some(), "vsphereVolume", errs);
    one(v.photon_persistent_disk.is_some(), "photonPersistentDisk", errs);
    one(v.portworx_volume.is_some(), "portworxVolume", errs);
    one(v.azure_disk.is_some(), "azureDisk", errs);
    one(v.storageos.is_some(), "storageos", errs);
    if let Some(pr) = &v.projected {
        if one(true, "projected", errs) {
            let pp = format!("{p}.projected");
            file_mode(pr.default_mode, format!("{pp}.defaultMode"), errs);
            projected_sources(pr, &pp, errs);
        }
    }
    one(v.scale_io.is_some(), "scaleIO", errs);
    if let Some(c) = &v.csi {
        if one(true, "csi", errs) {
            let dp = format!("{p}.csi.driver");
            if c.driver.is_empty() {
                errs.push(FieldError::required(dp.clone(), ""));
            }
            if c.driver.len() > 63 {
                errs.push(FieldError::too_long(dp.clone(), 63));
            }
            for m in names::dns1123_subdomain(&c.driver.to_lowercase()) {
                errs.push(FieldError::invalid(dp.clone(), c.driver.as_str(), m));
            }
        }
    }
    if let Some(e) = &v.ephemeral {
        if one(true, "ephemeral", errs) {
            match &e.volume_claim_template {
                None => errs.push(FieldError::required(format!("{p}.ephemeral.volumeClaimTemplate"), "")),
                Some(t) => {
                    let tp = format!("{p}.ephemeral.volumeClaimTemplate");
                    meta::template_meta(t.metadata.as_ref(), &format!("{tp}.metadata"), errs);
                    crate::validation::core::pvc_spec(&t.spec, &format!("{tp}.spec"), errs);
                }
            }
            if let Some(pod) = pod_name.filter(|n| !n.is_empty() && !v.name.is_empty()) {
                let pvc = format!("{pod}-{}", v.name);
                for m in names::name_is_dns_subdomain(&pvc, false) {
                    errs.push(FieldError::invalid(
                        format!("{p}.name"),
                        v.name.as_str(),
                        format!("PVC name {}: {m}", crate::errors::go_quote(&pvc)),
                    ));
                }
            }
        }
    }
    if let Some(img) = &v.image {
        if one(true, "image", errs) && img.reference.as_deref().unwrap_or_default().is_empty() {
            errs.push(FieldError::required(format!("{p}.image.reference"), ""));
        }
    }
    if n == 0 {
        errs.push(FieldError::required(p, "must specify a volume type"));
    }
}

pub(super) fn projected_sources(pr: &k8s_openapi::api::core::v1::ProjectedVolumeSource, p: &str, errs: &mut Errs) {
    let mut all_paths = BTreeSet::new();
    for (i, s) in pr.sources.iter().flatten().enumerate() {
        let sp = format!("{p}.sources[{i}]");
        let mut n = 0;
        if let Some(sec) = &s.secret {
            n += 1;
            if sec.name.is_empty() {
                errs.push(FieldError::required(format!("{sp}.secret.name"), ""));
            }
            for (j, kp) in sec.items.iter().flatten().enumerate() {
                key_to_path(&kp.key, &kp.path, kp.mode, &format!("{sp}.secret.items[{j}]"), errs);
                if !kp.path.is_empty() && !all_paths.insert(kp.path.clone()) {
                    errs.push(FieldError::invalid(p, sec.name.clone(), "conflicting duplicate paths"));
                }
            }
        }
        if let Some(cm) = &s.config_map {
            n += 1;
            if cm.name.is_empty() {
                errs.push(FieldError::required(format!("{sp}.configMap.name"), ""));
            }
            for (j, kp) in cm.items.iter().flatten().enumerate() {
                key_to_path(&kp.key, &kp.path, kp.mode, &format!("{sp}.configMap.items[{j}]"), errs);
                if !kp.path.is_empty() && !all_paths.insert(kp.path.clone()) {
                    errs.push(FieldError::invalid(p, cm.name.clone(), "conflicting duplicate paths"));
                }
            }
        }
        if let Some(d) = &s.downward_api {
            n += 1;
            let dp = format!("{sp}.downwardAPI");
            for f in d.items.iter().flatten() {
                if f.path.is_empty() {
                    errs.push(FieldError::required(format!("{dp}.path"), ""));
                }
                local_non_reserved_path(&f.path, &format!("{dp}.path"), errs);
                if !f.path.is_empty() && !all_paths.insert(f.path.clone()) {
                    errs.push(FieldError::invalid(p, f.path.as_str(), "conflicting duplicate paths"));
                }
            }
        }
        if let Some(t) = &s.service_account_token {
            n += 1;
            let exp = t.expiration_seconds.unwrap_or(0);
            if exp < 600 {
                errs.push(FieldError::invalid(
                    format!("{sp}.serviceAccountToken.expirationSeconds"),
                    exp,
                    "may not specify a duration less than 10 minutes",
                ));
            }
            if exp > 1 << 32 {
                errs.push(FieldError::invalid(
                    format!("{sp}.serviceAccountToken.expirationSeconds"),
                    exp,
                    "may not specify a duration larger than 2^32 seconds",
                ));
            }
            if t.path.is_empty() {
                errs.push(FieldError::required(format!("{p}.path"), ""));
            } else {
                local_non_reserved_path(&t.path, &format!("{p}.path"), errs);
            }
        }
        if s.cluster_trust_bundle.is_some() {
            n += 1;
        }
        if n > 1 {
            errs.push(FieldError::forbidden(sp, "may not specify more than 1 volume type per source"));
        }
    }
}
