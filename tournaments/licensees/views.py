"""The licensee list's page (organisers): the list's state and its last imports, a file
uploaded, its columns mapped in a preview with every bad line named, then the list replaced by
every line or none."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.generic import TemplateView

from tarot_club.errors import ServiceError
from tournaments.licensees import rules, selectors, services
from tournaments.licensees.messages import FIELD_NAMES
from tournaments.licensees.models import LicenseeUpload
from tournaments.permissions import can_create_tournaments
from tournaments.views.helpers import int_or_none

MAX_BYTES = 20 * 1024 * 1024  # the FFT's list: about 100,000 lines, 6 to 8 MB as CSV


class LicenseeFileForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("The FFT licensee list (CSV or Excel)"),
        help_text=gettext_lazy(
            "Its columns (licence, last name, first name, club, série, sex, year of birth) "
            "are chosen in the preview. The list imported replaces the whole list."
        ),
    )


class LicenseesView(LoginRequiredMixin, TemplateView):
    template_name = "staff/licensees.html"
    upload_limit = MAX_BYTES + 64 * 1024
    refused = False

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    @classmethod
    def refuse_upload(cls, request, **kwargs):
        view = cls()
        view.setup(request, **kwargs)
        view.refused = True
        return view.dispatch(request, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["count"], context["imports"] = selectors.list_state()
        context.setdefault("form", LicenseeFileForm())
        context["fields"] = [(name, FIELD_NAMES[name]) for name in rules.FIELDS]
        return context

    def post(self, request, *args, **kwargs):
        if self.refused:
            form = LicenseeFileForm(data={}, files={})
            form.is_valid()
            form.errors["file"] = form.error_class([_("The file is larger than 20 MB.")])
            return self.render_to_response(self.get_context_data(form=form), status=413)
        if "upload" in request.POST:
            return self._mapped(request)
        form = LicenseeFileForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form), status=422)
        upload_file = form.cleaned_data["file"]
        if upload_file.size > MAX_BYTES:
            form.add_error("file", _("The file is larger than 20 MB."))
            return self.render_to_response(self.get_context_data(form=form), status=422)
        upload = services.licensee_upload_store(
            user=request.user, filename=upload_file.name, content=upload_file.read()
        )
        return self._preview(request, upload, None, form)

    def _mapped(self, request):
        upload = LicenseeUpload.objects.filter(
            pk=int_or_none(request.POST.get("upload")), uploaded_by=request.user
        ).first()
        if upload is None:
            messages.error(
                request, _("This preview is no longer available: upload the file again.")
            )
            return redirect("tournaments:licensees")
        mapping = {name: int_or_none(request.POST.get(f"map_{name}")) for name in rules.FIELDS}
        if "confirm" not in request.POST:
            return self._preview(request, upload, mapping, LicenseeFileForm())
        try:
            trace = services.licensees_replace(upload=upload, mapping=mapping, user=request.user)
        except ServiceError as error:
            messages.error(request, str(error))
            return self._preview(request, upload, mapping, LicenseeFileForm(), status=422)
        messages.success(
            request,
            ngettext(
                "%(lines)d licensee imported from %(name)s (the list had %(before)d).",
                "%(lines)d licensees imported from %(name)s (the list had %(before)d).",
                trace.lines,
            )
            % {"lines": trace.lines, "name": trace.filename, "before": trace.replaced},
        )
        return redirect("tournaments:licensees")

    def _preview(self, request, upload, mapping, form, status=None):
        try:
            preview = selectors.licensee_preview(upload, mapping)
        except ServiceError as error:
            form.add_error("file", str(error))
            return self.render_to_response(self.get_context_data(form=form), status=422)
        if status is None:
            status = 200 if preview.ok else 422
        columns = list(enumerate(preview.header))
        return self.render_to_response(
            self.get_context_data(
                form=form,
                preview=preview,
                columns=columns,
                mapped=[(name, label, preview.mapping.get(name)) for name, label in _labels()],
            ),
            status=status,
        )


def _labels():
    return [(name, FIELD_NAMES[name]) for name in rules.FIELDS]
