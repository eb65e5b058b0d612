from django.urls import path

from scoring import views

urlpatterns = [
    path("", views.calculator, name="home"),
    path("calculette/", views.calculator, name="calculator"),
]
